def handle(event):
    return "handled " + event


def get_handler():
    return handle


print(get_handler()("click"))
