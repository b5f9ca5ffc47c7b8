from lib import Registry

registry = Registry()


@registry.add
def alpha():
    return "a"


@registry.add(name="b")
def beta():
    return "b"
