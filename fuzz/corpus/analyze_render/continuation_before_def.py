x = 1 + \
    2
\
def f():
    return x


@decorator \

def g():
    return f()
