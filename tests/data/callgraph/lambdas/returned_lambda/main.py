def clamp(value, low, high):
    return max(low, min(value, high))


def make_clamper(low, high):
    return lambda v: clamp(v, low, high)


def make_pair():
    first = lambda: 1
    second = lambda: make_clamper(0, 1)
    return first, second


limit = make_clamper(0, 10)
one, factory = make_pair()
print(limit(12), one(), factory()(5))
