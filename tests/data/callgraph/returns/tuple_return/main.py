def first():
    return 1


def second():
    return 2


def pair():
    return first, second


a, b = pair()
print(a() + b())
