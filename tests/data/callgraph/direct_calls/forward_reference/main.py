def first():
    return second() + third()


def second():
    return 2


def third():
    return 3


print(first())
