def fallback():
    return "fallback"


def primary():
    return "primary"


def secondary():
    return "secondary"


def choose(handler, default):
    if handler is None:
        return default
    return handler


def pick(handler):
    return choose(handler, None)


def run_primary():
    return pick(primary)()


def run_secondary():
    return choose(secondary, None)()


def run_fallback():
    return choose(None, fallback)()


print(run_primary(), run_secondary(), run_fallback())
