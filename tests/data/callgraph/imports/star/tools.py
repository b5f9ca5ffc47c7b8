__all__ = ["public", "Tool"]


def public():
    return _private()


def _private():
    return "private"


def hidden():
    return "hidden"


class Tool:
    def use(self):
        return "used"
