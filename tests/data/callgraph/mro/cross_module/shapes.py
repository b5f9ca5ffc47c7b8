class Shape:
    def __init__(self, size):
        self.size = size

    def area(self):
        return 0

    def report(self):
        return "area %d" % self.area()
