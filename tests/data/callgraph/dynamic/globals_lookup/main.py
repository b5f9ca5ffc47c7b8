def action_start():
    return "start"


def action_stop():
    return "stop"


def perform(name):
    return globals()["action_" + name]()


print(perform("start"), perform("stop"))
