"""Where the catalogue lives: in memory, or in a JSON file."""

import json
import os

from . import models
from .errors import NotFound


class Catalogue:
    """Items by key, in memory."""

    def __init__(self, items=()):
        self._items = {}
        for item in items:
            self.add(item)

    def add(self, item):
        self._items[item.key] = item
        return item.key

    def get(self, key):
        try:
            return self._items[key]
        except KeyError:
            raise NotFound(key) from None

    def remove(self, key):
        item = self.get(key)
        del self._items[key]
        return item

    def items(self):
        return sorted(self._items.values(), key=lambda item: item.key)

    def __len__(self):
        return len(self._items)


class JsonCatalogue(Catalogue):
    """A catalogue saved to a JSON file after every change."""

    def __init__(self, path):
        self.path = path
        super().__init__(self._load())

    def _load(self):
        if not os.path.exists(self.path):
            return []
        with open(self.path, encoding="utf-8") as handle:
            return [models.item_from_record(r) for r in json.load(handle)]

    def save(self):
        records = [item.to_record() for item in self.items()]
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(records, handle, indent=2)
        os.replace(tmp, self.path)

    def add(self, item):
        key = super().add(item)
        if hasattr(self, "path"):
            self.save()
        return key

    def remove(self, key):
        item = super().remove(key)
        self.save()
        return item


def open_catalogue(path=None):
    """A JSON catalogue at `path`, or an in-memory one."""
    return JsonCatalogue(path) if path else Catalogue()
