class Cat:
    def speak(self):
        return "meow"


class Cow:
    def speak(self):
        return "moo"

    def graze(self):
        return "grass"


cat, cow = Cat(), Cow()
print(cat.speak(), cow.graze())
