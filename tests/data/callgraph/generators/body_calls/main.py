def square(i):
    return i * i


def numbers(limit):
    for i in range(limit):
        yield square(i)


def total(limit):
    return sum(numbers(limit))


print(total(4))
