def compute():
    return 4


def on_click(self):
    return "click"


class Square:
    handler = on_click

    def __init__(self, side):
        self.side = side

    @property
    def area(self):
        return compute() * self.side

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __iter__(self):
        return iter([1])

    def __add__(self, other):
        return self.side + other.side


sq = Square(2)
print(sq.area, sq.handler())
with sq as s:
    print(s + s)
for item in sq:
    print(item)
