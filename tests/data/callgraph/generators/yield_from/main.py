def fetch_a():
    return "a"


def fetch_b():
    return "b"


def inner():
    yield fetch_a
    yield fetch_b


def outer():
    yield from inner()


for fetch in outer():
    print(fetch())
