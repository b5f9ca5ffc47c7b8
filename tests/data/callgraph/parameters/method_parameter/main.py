def halve(x):
    return x / 2


class Box:
    def __init__(self, value):
        self.value = value

    def apply(self, fn):
        return fn(self.value)

    def apply_twice(self, fn):
        return self.apply(fn) + Box.apply(self, fn)


print(Box(8).apply_twice(halve))
