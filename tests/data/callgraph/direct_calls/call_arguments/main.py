def compute():
    return 3


def check(value):
    return value > 2


def run(value, limit=compute()):
    return value + limit


def combine(a, b):
    return a + b


def double(x):
    return x * 2


if check(compute()):
    print(combine(double(1), double(run(2))))
