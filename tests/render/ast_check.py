#!/usr/bin/env python3
"""Checks that tagged copies parse to the same program: ast_check.py REPO OUT_DIR.

OUT_DIR holds OUT_DIR/<view>/<path> as written by render_corpus_check. Exits 1 on any
difference; files whose original does not parse are not compared.
"""
import ast
import os
import sys


def main() -> int:
    root, out = sys.argv[1], sys.argv[2]
    checked = bad = 0
    for view in sorted(os.listdir(out)):
        base = os.path.join(out, view)
        for directory, _, names in os.walk(base):
            for name in names:
                if not name.endswith(".py"):
                    continue
                tagged = os.path.join(directory, name)
                original = os.path.join(root, os.path.relpath(tagged, base))
                try:
                    want = ast.dump(ast.parse(open(original, "rb").read()))
                except (SyntaxError, ValueError):
                    continue
                checked += 1
                try:
                    got = ast.dump(ast.parse(open(tagged, "rb").read()))
                except (SyntaxError, ValueError) as error:
                    bad += 1
                    print(f"{view}: {tagged}: does not parse: {error}")
                    continue
                if got != want:
                    bad += 1
                    print(f"{view}: {tagged}: different program")
    print(f"checked {checked}, different {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
