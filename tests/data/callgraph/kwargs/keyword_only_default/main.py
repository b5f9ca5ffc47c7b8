def default_format(value):
    return str(value)


def fancy_format(value):
    return "<%s>" % value


def render(value, *, formatter=default_format):
    return formatter(value)


print(render(1))
print(render(2, formatter=fancy_format))
