class Engine:
    def __init__(self, name):
        self.name = name

    def run(self):
        return self.name + " running"


def start(name):
    return Engine(name).run()
