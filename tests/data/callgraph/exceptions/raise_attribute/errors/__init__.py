class NotFound(Exception):
    def __init__(self, key):
        super().__init__("missing %s" % key)
        self.key = key
