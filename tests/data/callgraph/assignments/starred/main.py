def alpha():
    return "a"


def beta():
    return "b"


def gamma():
    return "c"


head, *tail = [alpha, beta, gamma]
print(head())
for fn in tail:
    print(fn())
