def noop():
    return None


def loud():
    return "LOUD"


def run(action=noop):
    return action()


print(run(), run(loud))
