def wrap(fn):
    return fn


def shout(text):
    return text.upper()


def apply(fn, text):
    return fn(text)


print(apply(wrap(shout), "hey"))
print(apply(wrap(wrap(str.lower)), "HO"))
