class Item:
    def __init__(self, name, size):
        self.name = name
        self.size = size


def make(name):
    return Item(name, len(name))


def by_size(item):
    return item.size


def is_large(item):
    return item.size > 3


def shout(item):
    return item.name.upper()


def describe():
    return "done"


def report(items):
    largest = max(items, key=by_size)
    smallest = min(items[0], items[1], key=lambda item: item.size)
    return largest.name, smallest.name


items = list(map(make, ["ab", "abcd", "abcdef"]))
ordered = sorted(items, key=by_size)
items.sort(key=by_size)
large = [shout(item) for item in filter(is_large, ordered)]
print(report(items), large, list(map(str, [describe()])))
announcers = map(lambda item: describe, items)
for announce in announcers:
    print(announce())
