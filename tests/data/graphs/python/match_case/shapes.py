class Circle:
    def __init__(self, radius=1):
        self.radius = radius

    def area(self):
        return 3 * self.radius * self.radius


class Square:
    def __init__(self, side=1):
        self.side = side

    def area(self):
        return self.side * self.side
