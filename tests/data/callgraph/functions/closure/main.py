def scale(x):
    return x * 10


def make_adder(n):
    def add(x):
        return scale(x) + n

    return add


def make_counter():
    count = 0

    def increment():
        nonlocal count
        count += 1
        return count

    return increment


add5 = make_adder(5)
print(add5(1))
counter = make_counter()
counter()
print(counter())
