#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Entry point."""
from b import helper
from pkg.c import Base


class Child(Base):
    def run(self):
        return helper(self.value())


def main():
    return Child().run()

#@@file
def helper(x):
    return x + 1


def unused():
    return helper(0)

#@@file
from ..b import helper


class Base:
    def value(self):
        return helper(41)
