class Store:
    def __init__(self, path):
        self.path = path


class Cache:
    def __init__(self, size):
        self.size = size


class Queue:
    def __init__(self, name):
        self.name = name


def build_queue(name):
    return Queue(name)


BACKENDS = {"store": Store, "cache": Cache}
BACKENDS["queue"] = build_queue


def make_store():
    return BACKENDS["store"]("/tmp/data")


def make_queue():
    return BACKENDS["queue"]("jobs")


def make_any(kind):
    return BACKENDS[kind](1)


make_store()
make_queue()
for kind in ("store", "cache", "queue"):
    make_any(kind)
