class Registry:
    def __init__(self):
        self.items = {}

    def add(self, fn=None, name=None):
        if fn is None:

            def decorate(func):
                return self.add(func, name)

            return decorate
        self.items[name or fn.__name__] = fn
        return fn
