#!/usr/bin/env python3
"""The language-neutral core names no language (scripts/check_language_neutral.py).

  language_neutral_test.py SOURCE_DIR

The source tree must pass the check, and a fixture whose literals name languages must fail it
with exactly the expected findings (so the check itself cannot quietly stop finding them).
"""
import subprocess
import sys


def check(root, *dirs):
    return subprocess.run([sys.executable, root + "/scripts/check_language_neutral.py", root,
                           *dirs], capture_output=True, text=True, check=False)


def main(argv):
    root = argv[1]
    failed = False
    tree = check(root)
    if tree.returncode != 0:
        print("the language-neutral modules name a language:\n" + tree.stdout + tree.stderr)
        failed = True
    fixture = root + "/tests/data/language_neutral/render"
    found = check(root, fixture)
    lines = [line.split(": ", 1)[1] for line in found.stdout.splitlines()]
    expected = ["'# '", "'pyproject.toml'", "'.py'", "'the Rust way'", "'#'"]
    if found.returncode != 1 or lines != expected:
        print("fixture: exit %d, findings %s, expected exit 1 and %s\n%s" %
              (found.returncode, lines, expected, found.stderr))
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
