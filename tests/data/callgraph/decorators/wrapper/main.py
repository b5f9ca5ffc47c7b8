def logged(fn):
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


@logged
def add(a, b):
    return a + b


print(add(1, 2))
