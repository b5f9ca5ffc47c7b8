class Service:
    def __init__(self, name):
        self.name = name

    def start(self):
        return self.name + " started"


def make_service():
    return Service("db")


def run():
    service = make_service()
    return service.start()


print(run())
