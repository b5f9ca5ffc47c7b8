class Base:
    def __init__(self, name):
        self.name = name


class Child(Base):
    def __init__(self, name, age):
        super().__init__(name)
        self.age = age


child = Child("ann", 3)
print(child.name, child.age)
