def circle(r):
    return 3 * r * r


def _helper():
    return 0


def square(s):
    return s * s + _helper()
