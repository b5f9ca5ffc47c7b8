def on_get():
    return "get"


def on_post():
    return "post"


routes = {"GET": on_get, "POST": on_post}
print(routes["GET"]())
