from pkg.shapes import Square


def total(shapes):
    return sum(s.area() for s in shapes)


def run():
    return total([Square(2)])
