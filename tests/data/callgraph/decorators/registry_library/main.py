class Library:
    def __init__(self):
        self.filters = {}

    def filter(self, name=None, filter_func=None):
        if name is None and filter_func is None:

            def dec(func):
                return self.filter_function(func)

            return dec
        elif name is not None and filter_func is None:
            if callable(name):
                return self.filter_function(name)

            def dec(func):
                return self.filter(name, func)

            return dec
        self.filters[name] = filter_func
        return filter_func

    def filter_function(self, func):
        return self.filter(func.__name__, func)


register = Library()


@register.filter
def upper(value):
    return value.upper()


@register.filter("shout")
def shout(value):
    return upper(value) + "!"


@register.filter()
def lower(value):
    return value.lower()


print(shout("a"), lower("B"), sorted(register.filters))
