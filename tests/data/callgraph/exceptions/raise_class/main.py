class Stop(Exception):
    def __init__(self):
        super().__init__("stop")


def halt():
    raise Stop


try:
    halt()
except Stop as stop:
    print(stop)
