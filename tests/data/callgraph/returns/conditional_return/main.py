def fast(n):
    return n


def slow(n):
    return sum(range(n))


def choose(big):
    if big:
        return slow
    return fast


print(choose(True)(4), choose(False)(4))
