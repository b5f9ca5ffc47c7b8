def one():
    return 1


def two():
    return 2


def call_all(*functions):
    return [fn() for fn in functions]


print(call_all(one, two))
print(call_all(*(two,)))
