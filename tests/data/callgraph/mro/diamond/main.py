class A:
    def who(self):
        return "A"

    def only_a(self):
        return "a"


class B(A):
    def who(self):
        return "B"


class C(A):
    def who(self):
        return "C"

    def only_c(self):
        return "c"


class D(B, C):
    pass


d = D()
print(d.who(), d.only_c(), d.only_a())
