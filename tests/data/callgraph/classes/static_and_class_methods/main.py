class Shape:
    def __init__(self, sides):
        self.sides = sides

    @classmethod
    def triangle(cls):
        return cls(Shape.normalize(3))

    @staticmethod
    def normalize(n):
        return max(n, 0)

    def describe(self):
        return "%d sides" % self.normalize(self.sides)


shape = Shape.triangle()
print(shape.describe())
print(Shape.normalize(-1))
