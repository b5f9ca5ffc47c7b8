from ..util import count


def measure(text):
    return count(text) * 2
