"""Definitions opening flow-control bodies: black writes an empty line before each."""
import os

if os.name == "nt":

    def separator():
        return "\\"

elif os.name == "java":

    def separator():
        return "/"

else:

    @staticmethod
    def separator():
        return "/"


def choose(values):
    for value in values:

        def keep():
            return separator()

    try:

        class Found(Exception):
            pass

    except ValueError:

        def fallback():
            return keep()

    finally:
        pass
    with open(os.devnull) as sink:

        def close():
            sink.close()

    while values:
        # A comment keeps black from wanting the empty line.
        def comment_first():
            return fallback()

        break
    return close, comment_first, Found


class Shapes:
    if os.name:

        def area(self):
            return choose([])
