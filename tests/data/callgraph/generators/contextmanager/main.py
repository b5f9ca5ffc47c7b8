import contextlib
from contextlib import contextmanager


class Session:
    def run(self):
        return 1


@contextmanager
def opened():
    yield Session()


@contextlib.contextmanager
def scoped(name):
    yield name


class Store:
    @contextmanager
    def transaction(self):
        yield self

    def commit(self):
        return 2


def use():
    with opened() as s:
        s.run()
    with scoped("x"):
        pass
    manager = opened()
    with manager as again:
        again.run()
    store = Store()
    with store.transaction() as t:
        t.commit()


use()
