def work():
    return "work"


def rest():
    return "rest"
