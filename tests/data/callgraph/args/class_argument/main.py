class Widget:
    def __init__(self):
        self.kind = "widget"

    def draw(self):
        return "[%s]" % self.kind


def build(factory):
    item = factory()
    return item.draw()


print(build(Widget))
