def shout(text):
    return text.upper()


def identity(value):
    return value


chosen = identity(shout)
print(chosen("hey"))
