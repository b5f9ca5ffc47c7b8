def load():
    return ["plugin"]
