def bold(fn):
    def make_bold():
        return "<b>" + fn() + "</b>"

    return make_bold


def italic(fn):
    def make_italic():
        return "<i>" + fn() + "</i>"

    return make_italic


@bold
@italic
def text():
    return "hi"


print(text())
