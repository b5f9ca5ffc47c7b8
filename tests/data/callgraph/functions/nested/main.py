def leaf():
    return 1


def outer():
    def helper():
        return leaf()

    def other():
        return helper() + 1

    return other()


print(outer())
