class Store:
    def __init__(self):
        self.items = {}

    def save(self, key, value):
        self.items[key] = self.encode(value)
        return key

    def encode(self, value):
        return str(value)


class AuditedStore(Store):
    def __init__(self):
        super().__init__()
        self.log = []

    def save(self, key, value):
        self.log.append(key)
        return super().save(key, value)

    @classmethod
    def create(cls):
        return cls()


store = AuditedStore.create()
store.save("a", 1)
print(store.items, store.log)
