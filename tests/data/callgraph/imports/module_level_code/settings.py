def load_defaults():
    return {"debug": False}


def env_name():
    return "prod"


DEFAULTS = load_defaults()
NAME = env_name()
