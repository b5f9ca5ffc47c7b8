def work():
    return "work"


def helper():
    return "helper"


def direct():
    return "direct"


print(eval("work()"))
exec("helper()")
print(direct())
