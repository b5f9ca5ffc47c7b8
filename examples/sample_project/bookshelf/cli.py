"""Command-line entry point: python3 -m bookshelf.cli."""

import argparse
import sys

from . import models
from .errors import ShelfError
from .services import LendingService


def build_parser():
    parser = argparse.ArgumentParser(prog="bookshelf")
    parser.add_argument("--catalogue", help="JSON file holding the catalogue")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="show every item")
    add = commands.add_parser("add", help="add a book")
    add.add_argument("title")
    add.add_argument("author")
    add.add_argument("year", type=int)
    lend = commands.add_parser("lend", help="lend an item")
    lend.add_argument("key")
    lend.add_argument("borrower")
    back = commands.add_parser("return", help="take an item back")
    back.add_argument("key")
    return parser


def run(args, service):
    if args.command == "list":
        print(service.report())
    elif args.command == "add":
        key = service.catalogue.add(models.Book(args.title, args.year, args.author))
        print(f"added {key}")
    elif args.command == "lend":
        loan = service.lend(args.key, args.borrower)
        print(f"lent {loan.key} to {loan.borrower} for {loan.days} days")
    elif args.command == "return":
        item = service.give_back(args.key)
        print(f"{item.describe()} is back")


def main(argv=None):
    args = build_parser().parse_args(argv)
    service = LendingService.from_path(args.catalogue)
    try:
        run(args, service)
    except ShelfError as error:
        print(f"bookshelf: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
