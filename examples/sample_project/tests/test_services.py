"""Tests of the lending rules (run with python3 -m unittest)."""

import unittest

from bookshelf.errors import AlreadyLent
from bookshelf.models import Book, ReferenceBook
from bookshelf.services import LendingService
from bookshelf.storage import Catalogue


class LendingServiceTest(unittest.TestCase):
    def setUp(self):
        self.service = LendingService(Catalogue([
            Book("The Hobbit", 1937, "J. R. R. Tolkien"),
            ReferenceBook("Oxford English Dictionary", 1884, "Murray"),
        ]))

    def test_lend_then_return(self):
        loan = self.service.lend("hobbit-the", "alice")
        self.assertEqual(loan.borrower, "alice")
        self.assertEqual(len(self.service.available()), 0)
        self.service.give_back("hobbit-the")
        self.assertEqual(len(self.service.available()), 1)

    def test_lend_twice_fails(self):
        self.service.lend("hobbit-the", "alice")
        with self.assertRaises(AlreadyLent):
            self.service.lend("hobbit-the", "bob")


if __name__ == "__main__":
    unittest.main()
