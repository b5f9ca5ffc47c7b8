def greet():
    return "hello"


class Bag:
    pass


bag = Bag()
setattr(bag, "say", greet)
print(bag.say())
