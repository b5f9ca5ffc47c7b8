from shapes import Shape


class Square(Shape):
    def area(self):
        return self.size * self.size


print(Square(3).report())
