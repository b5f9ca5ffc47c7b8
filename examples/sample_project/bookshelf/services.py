"""Lending rules on top of a catalogue."""

from .errors import AlreadyLent, ShelfError
from .models import Loan
from .storage import Catalogue, open_catalogue
from .util.decorators import timed, validate_key


class LendingService:
    """Lends and returns items, keeping a history of loans."""

    def __init__(self, catalogue=None):
        self.catalogue = catalogue if catalogue is not None else Catalogue()
        self.history = []

    @classmethod
    def from_path(cls, path):
        return cls(open_catalogue(path))

    @timed
    @validate_key
    def lend(self, key, borrower, days=14):
        item = self.catalogue.get(key)
        if not item.is_available():
            if item.borrower is None:
                raise ShelfError(f"{item.describe()} cannot be lent")
            raise AlreadyLent(key, item.borrower)
        item.borrower = borrower
        loan = Loan(key, borrower, days)
        self.history.append(loan)
        self._persist()
        return loan

    @timed
    @validate_key
    def give_back(self, key):
        item = self.catalogue.get(key)
        item.borrower = None
        self._persist()
        return item

    def available(self):
        return [item for item in self.catalogue.items() if item.is_available()]

    def overdue(self, today, start_days):
        """Loans older than their allowed days, given each loan's start day."""

        def is_late(loan):
            started = start_days.get(loan.key, today)
            return today - started > loan.days

        return [loan for loan in self.history if is_late(loan)]

    def report(self):
        lines = [item.describe() for item in self.catalogue.items()]
        lines.append(f"{len(self.available())} of {len(self.catalogue)} available")
        return "\n".join(lines)

    def _persist(self):
        save = getattr(self.catalogue, "save", None)
        if save is not None:
            save()
