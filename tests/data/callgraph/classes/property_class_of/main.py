class Shape:
    @property
    def kind(self):
        return self.__class__

    def clone(self):
        return self.kind()


class Circle(Shape):
    def __init__(self):
        self.radius = 1


class Square(Shape):
    def __init__(self):
        self.side = 2


circle = Circle()
print(type(circle.kind()))
print(type(Square().clone()), isinstance(Shape.kind, property))
