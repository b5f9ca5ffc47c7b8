def load():
    return "load"


def save():
    return "save"


def close():
    return "close"


def extra():
    return "extra"


def run_pair(pair):
    return pair[1]()


actions = (load, save, close)
actions[0]()
print(run_pair((close, load)))
handlers = [save, close]
handlers.insert(0, extra)
handlers[0]()
for index in range(len(actions)):
    actions[index]()
