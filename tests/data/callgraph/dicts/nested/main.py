def begin():
    return "begin"


def end():
    return "end"


config = {"hooks": {"start": begin, "stop": end}}
print(config["hooks"]["start"]())
