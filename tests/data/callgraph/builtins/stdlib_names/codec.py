def dumps(value):
    return "codec:%s" % value


def join(*parts):
    return "+".join(parts)
