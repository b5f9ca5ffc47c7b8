import functools


def traced(fn):
    @functools.wraps(fn)
    def inner(*args):
        return fn(*args)

    return inner


@traced
def square(x):
    return x * x


print(square(4), square.__name__)
