def lazy():
    from helpers import heavy

    return heavy()


def lazy_module():
    import helpers

    return helpers.heavy()


print(lazy(), lazy_module())
