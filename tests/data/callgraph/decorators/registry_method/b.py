from lib import Registry

tools = Registry()


@tools.add
def gamma():
    return "g"
