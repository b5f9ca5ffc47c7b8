class Root:
    def hello(self):
        return ["root"]


class Left(Root):
    def hello(self):
        return ["left"] + super().hello()


class Right(Root):
    def hello(self):
        return ["right"] + super().hello()


class Both(Left, Right):
    def hello(self):
        return ["both"] + super().hello()


print(Both().hello())
print(Left().hello())
