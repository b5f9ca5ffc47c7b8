def wash():
    return "wash"


def dry():
    return "dry"


for action in [wash, dry]:
    print(action())
