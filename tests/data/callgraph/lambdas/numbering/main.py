def double(x):
    return 2 * x


def pick(flag):
    inc = lambda v: v + 1
    dbl = lambda v: double(v)
    return inc if flag else dbl


print(pick(True)(1), pick(False)(2))
