class A:
    def f(self):
        return 1


class B(A):
    def f(self):
        return A.f(self) + 1


def g():
    return B().f()
