def norm(value):
    return abs(value)


class Sorter:
    def __init__(self, values):
        self.values = values

    def key(self):
        return lambda v: norm(v)

    def smallest(self):
        k = self.key()
        return min(k(v) for v in self.values)


print(Sorter([-3, 2]).smallest())
