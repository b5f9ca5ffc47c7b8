def base(x):
    return x + 1


square = lambda x: base(x) * x
print(square(3))
