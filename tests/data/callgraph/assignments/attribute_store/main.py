def red():
    return "red"


def blue():
    return "blue"


class Palette:
    pass


class Settings:
    theme = None


palette = Palette()
palette.pick = red
Settings.theme = blue
print(palette.pick(), Settings.theme())
