"""The catalogue's items: a base class and its kinds."""

from dataclasses import dataclass, field

from .util.text import normalize_title, slugify


class Item:
    """Anything that can be lent."""

    kind = "item"

    def __init__(self, title, year):
        self.title = normalize_title(title)
        self.year = year
        self.borrower = None

    @property
    def key(self):
        return slugify(self.title)

    def is_available(self):
        return self.borrower is None

    def describe(self):
        return f"{self.title} ({self.year})"

    def to_record(self):
        return {"kind": self.kind, "title": self.title, "year": self.year,
                "borrower": self.borrower}


class Book(Item):
    kind = "book"

    def __init__(self, title, year, author, pages=0):
        super().__init__(title, year)
        self.author = author
        self.pages = pages

    def describe(self):
        return f"{super().describe()} by {self.author}"

    def to_record(self):
        record = super().to_record()
        record.update(author=self.author, pages=self.pages)
        return record


class Magazine(Item):
    kind = "magazine"

    def __init__(self, title, year, issue):
        super().__init__(title, year)
        self.issue = issue

    def describe(self):
        return f"{self.title} #{self.issue} ({self.year})"

    def to_record(self):
        record = super().to_record()
        record["issue"] = self.issue
        return record


class ReferenceBook(Book):
    """A book that never leaves the library."""

    kind = "reference"

    def is_available(self):
        return False


@dataclass
class Loan:
    key: str
    borrower: str
    days: int = 14
    notes: list = field(default_factory=list)


def item_from_record(record):
    """Rebuilds an item from `Item.to_record` output."""
    kind = record.get("kind", "book")
    if kind == "magazine":
        item = Magazine(record["title"], record["year"], record["issue"])
    elif kind == "reference":
        item = ReferenceBook(record["title"], record["year"], record["author"])
    else:
        item = Book(record["title"], record["year"], record.get("author", "unknown"),
                    record.get("pages", 0))
    item.borrower = record.get("borrower")
    return item
