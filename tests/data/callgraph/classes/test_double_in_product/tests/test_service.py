from service import DiskStore, Service


class FakeStore:
    def __init__(self):
        self.items = []

    def put(self, item):
        self.items.append(item)


def test_save():
    service = Service(FakeStore())
    assert service.save(1) == 1


def test_disk():
    Service(DiskStore()).save(2)
