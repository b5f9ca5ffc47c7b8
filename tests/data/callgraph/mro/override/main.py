class Animal:
    def name(self):
        return "animal"

    def greet(self):
        return "I am " + self.name()


class Dog(Animal):
    def name(self):
        return "dog"


print(Animal().greet())
print(Dog().greet())
