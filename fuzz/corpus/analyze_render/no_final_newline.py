def f():
    return 1


def g():
    return f()