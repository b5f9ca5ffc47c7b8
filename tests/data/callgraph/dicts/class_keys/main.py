class Circle:
    def __init__(self, radius):
        self.radius = radius


class Square:
    def __init__(self, side):
        self.side = side


def draw_circle(shape):
    return "circle %d" % shape.radius


def draw_square(shape):
    return "square %d" % shape.side


DRAWERS = {Circle: draw_circle, Square: draw_square}


def draw(shape):
    return DRAWERS[type(shape)](shape)


def draw_default(shape):
    return DRAWERS.get(type(shape), draw_circle)(shape)


def pairs():
    return [drawer(kind(2)) for kind, drawer in DRAWERS.items()]


print(draw(Circle(1)), draw(Square(2)), draw_default(Circle(3)), draw_default(Square(4)), pairs())
