class Base:
    def __init__(self, name):
        self.name = name
        self.setup()

    def setup(self):
        return None


class Middle(Base):
    def label(self):
        return self.name.upper()


class Leaf(Middle):
    pass


leaf = Leaf("x")
print(leaf.label())
