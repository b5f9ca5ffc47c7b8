class Service:
    def __init__(self, store):
        self.store = store

    def save(self, item):
        self.store.put(item)
        return item


class DiskStore:
    def put(self, item):
        return item
