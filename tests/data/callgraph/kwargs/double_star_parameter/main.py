def on_save():
    return "save"


def on_load():
    return "load"


def dispatch(action, **handlers):
    return handlers[action]()


print(dispatch("save", save=on_save, load=on_load))
print(dispatch("load", save=on_save, load=on_load))
