def work(x):
    return x + 1


def idle(x):
    return x


job = work
other = job
print(other(1))


def runner():
    local = idle
    return local(2)


print(runner())
