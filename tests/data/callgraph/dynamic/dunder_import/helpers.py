def work():
    return "work"
