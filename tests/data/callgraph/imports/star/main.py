from tools import *


def hidden():
    return "local hidden"


print(public(), Tool().use(), hidden())
