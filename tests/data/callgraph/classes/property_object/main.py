def cached(getter):
    def accessor(self):
        return getter(self)

    return property(accessor)


class Predicate:
    def __call__(self, value):
        return bool(value)


class Keys:
    @cached
    def positive(self):
        return Predicate()

    def get_size(self):
        return 3

    size = property(get_size)


Q = Keys()


def check(value):
    return Q.positive(value) and Q.size > 0


print(check(1))
