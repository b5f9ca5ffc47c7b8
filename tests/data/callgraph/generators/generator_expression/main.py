def weight(item):
    return len(item)


def heaviest(items):
    return max(weight(item) for item in items)


print(heaviest(["a", "bbb"]))
