def good():
    return 1


def bad(:
    return good(


class Half(
    def m(self):
        pass
