x = ((((((((((((((((((((1))))))))))))))))))))
y = [[[[[[[[[[[[]]]]]]]]]]]]
z = f(f(f(f(f(f(f(f(1))))))))
w = lambda: lambda: lambda: 1


def f(v):
    return v
