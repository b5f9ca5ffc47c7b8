from shapes import Circle, Square


def area_of(shape):
    match shape:
        case Circle(radius=r) if positive(r):
            return shape.area()
        case Square():
            return shape.area()
        case _:
            return fallback()


def positive(number):
    return number > 0


def fallback():
    return 0


def parse(text):
    return {"kind": text}


def describe(value):
    match parse(value):
        case {"kind": "circle"}:
            return area_of(Circle(2))
        case [first, *rest]:
            return first
    return None


def run():
    area_of(Square())
    describe("circle")
