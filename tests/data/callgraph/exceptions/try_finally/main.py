def risky():
    raise ValueError("nope")


def recover():
    return "recovered"


def cleanup():
    return "clean"


def otherwise():
    return "no error"


def attempt():
    try:
        risky()
    except ValueError:
        return recover()
    else:
        return otherwise()
    finally:
        cleanup()


print(attempt())
