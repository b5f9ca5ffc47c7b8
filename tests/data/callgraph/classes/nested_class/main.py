class Outer:
    class Inner:
        def ping(self):
            return "pong"

    def make(self):
        return self.Inner()

    def make_direct(self):
        return Outer.Inner()


outer = Outer()
print(outer.make().ping())
print(outer.make_direct().ping())
