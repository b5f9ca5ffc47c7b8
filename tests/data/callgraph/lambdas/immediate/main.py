def work():
    return "w"


def noop():
    return None


first = (lambda: work())()
second = lambda: noop()
print(first, second())
