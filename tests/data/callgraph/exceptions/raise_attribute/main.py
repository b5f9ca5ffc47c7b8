import errors


class Lookup:
    error_class = errors.NotFound

    def __init__(self):
        self.data = {}

    def get(self, key):
        if key not in self.data:
            raise self.error_class(key)
        return self.data[key]


def find(key):
    if not key:
        raise errors.NotFound("empty")
    return Lookup().get(key)


for attempt in ("", "x"):
    try:
        find(attempt)
    except errors.NotFound as error:
        print(error.key)
