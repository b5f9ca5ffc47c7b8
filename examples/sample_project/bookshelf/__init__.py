"""bookshelf: a small lending library used as the anchorfs sample project."""

from .models import Book, Magazine
from .services import LendingService

__all__ = ["Book", "Magazine", "LendingService"]
__version__ = "0.3.0"
