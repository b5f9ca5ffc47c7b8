def func():
    return "f"


a = b = func
print(a(), b())
