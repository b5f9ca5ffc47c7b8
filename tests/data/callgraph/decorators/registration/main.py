registry = []


def register(fn):
    registry.append(fn)
    return fn


def helper():
    return 1


@register
def task():
    return helper()


print(task())
