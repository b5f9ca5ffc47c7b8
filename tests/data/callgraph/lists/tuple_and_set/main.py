def north():
    return "N"


def south():
    return "S"


def east():
    return "E"


for direction in (north, south):
    print(direction())
for direction in {east}:
    print(direction())
