from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Box(Generic[T]):
    item: T

    def map(self, fn) -> Box:
        return Box(fn(self.item))


def classify(value):
    match value:
        case Box(item=int() as n) if (m := n * 2) > 10:
            return m
        case [first, *rest]:
            return classify(first), len(rest)
        case _:
            return None


def counter():
    count = 0

    def bump():
        nonlocal count
        count += 1
        return count

    return bump


squares = {n: n * n for n in range(10) if classify(n) is None}
