def square(x):
    return x * x


def is_even(x):
    return x % 2 == 0


def evens_squared(values):
    return [square(v) for v in values if is_even(v)]


print(evens_squared(range(6)))
print({v: square(v) for v in (1, 2)})
