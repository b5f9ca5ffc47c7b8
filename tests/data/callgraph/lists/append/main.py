def on_open():
    return "open"


def on_close():
    return "close"


class Hooks:
    def __init__(self):
        self.items = []

    def add(self, fn):
        self.items.append(fn)

    def fire(self):
        return [hook() for hook in self.items]


hooks = Hooks()
hooks.add(on_open)
hooks.add(on_close)
print(hooks.fire())
