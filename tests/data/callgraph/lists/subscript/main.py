def add(a, b):
    return a + b


def sub(a, b):
    return a - b


operations = [add, sub]
print(operations[0](1, 2), operations[-1](5, 3))
