class Multiplier:
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, value):
        return self.apply(value)

    def apply(self, value):
        return value * self.factor


triple = Multiplier(3)
print(triple(2))


def use(fn):
    return fn(5)


print(use(Multiplier(2)))
