def max(a, b):
    return a if a > b else b


def len(seq):
    return 42


print(max(1, 2), len([1]))
