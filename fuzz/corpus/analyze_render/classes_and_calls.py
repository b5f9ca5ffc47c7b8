"""Shapes with a registry: inheritance, methods calling methods, module-level calls."""
import math

REGISTRY = {}


def register(cls):
    REGISTRY[cls.__name__] = cls
    return cls


class Shape:
    def area(self):
        raise NotImplementedError

    def describe(self):
        return f"{type(self).__name__} with area {self.area():.2f}"


@register
class Circle(Shape):
    def __init__(self, radius):
        self.radius = radius

    def area(self):
        return math.pi * self.radius ** 2


@register
class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side


def total_area(shapes):
    return sum(shape.area() for shape in shapes)


if __name__ == "__main__":
    print(total_area([Circle(1), Square(2)]))
