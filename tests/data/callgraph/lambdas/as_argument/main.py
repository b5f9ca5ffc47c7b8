def helper(x):
    return x * 3


def apply(fn, value):
    return fn(value)


print(apply(lambda v: helper(v), 2))
