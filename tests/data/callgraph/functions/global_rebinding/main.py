handler = None


def on_event():
    return "event"


def install():
    global handler
    handler = on_event


def fire():
    return handler()


install()
print(fire())
