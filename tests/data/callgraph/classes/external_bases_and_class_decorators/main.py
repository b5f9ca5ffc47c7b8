import threading
from dataclasses import dataclass


def tracked(cls):
    cls.tracked = True
    return cls


@tracked
class Job:
    def __init__(self, name):
        self.name = name

    def run(self):
        return self.name


@dataclass
class Point:
    x: int

    def norm(self):
        return abs(self.x)


class Worker(threading.Thread):
    def __init__(self):
        super().__init__()
        self.result = None

    def run(self):
        self.result = Job("w").run()


job = Job("a")
runner = job.run
print(runner(), Point(-3).norm())
worker = Worker()
worker.start()
worker.join()
print(worker.result)
