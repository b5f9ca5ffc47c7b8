def first():
    return 1


def second():
    return 2


def third():
    return 3


def fourth():
    return 4


steps = [first, second, third, fourth]
middle = steps[1:3]
middle[0]()
for step in steps[2:]:
    step()
copy = steps[:]
copy.append(fourth)
print([handler() for handler in steps[:1]], len(copy))
