from . import models


def index():
    return [item.title() for item in models.all_items()]
