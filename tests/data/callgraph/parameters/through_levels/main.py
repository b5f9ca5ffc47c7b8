def target(x):
    return x + 100


def inner(fn, x):
    return fn(x)


def middle(fn, x):
    return inner(fn, x + 1)


def outer(fn):
    return middle(fn, 0)


print(outer(target))
