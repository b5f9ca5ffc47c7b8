def beep():
    return "beep"


def inner(sound, times=1):
    return sound() * times


def outer(**options):
    return inner(**options)


print(outer(sound=beep, times=2))
