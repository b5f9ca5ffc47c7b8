def load():
    return "load"


def parse():
    return "parse"


def stages():
    yield load
    yield parse


for stage in stages():
    print(stage())
