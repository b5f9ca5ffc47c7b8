def ping():
    return "ping"


def pong():
    return "pong"


def players():
    yield ping
    yield pong


turns = players()
print(next(turns)(), next(turns)())
