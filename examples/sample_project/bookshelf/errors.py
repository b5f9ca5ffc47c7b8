"""Errors raised by the library."""


class ShelfError(Exception):
    """Base class of every error the library raises."""


class NotFound(ShelfError):
    def __init__(self, key):
        super().__init__(f"no item with key {key!r}")
        self.key = key


class AlreadyLent(ShelfError):
    def __init__(self, key, borrower):
        super().__init__(f"{key!r} is already lent to {borrower}")
        self.key = key
        self.borrower = borrower
