def func():
    return "deep"


def other():
    return "other"
