"""The edit fuzzers' shared sample: a small Python package with tag-shaped lines where anchorfs must
never remove them (a README example, a shell comment, a test's string), and small helpers.

Used by tests/integration/writable_fuzz.py (through a writable mount) and
tests/roundtrip/roundtrip_fuzz.py (through export and import), so both judge the same cases.
"""
import subprocess

CORE = '''"""Core arithmetic."""


def helper(x):
    a = x + 1
    return a


def twice(y):
    return helper(y) * 2


class Engine:
    def run(self):
        return helper(1) + twice(2)
'''

APP = '''from pkg.core import Engine, helper, twice


def main():
    return helper(2) + Engine().run()


def other():
    return twice(main())
'''

UTIL = '''from pkg.app import main


def entry():
    value = main()
    return value
'''

TAG_SHAPED = '''# === Function Annotation ===
# function: example.py:f
# CALLS: g
# === Function Annotation ===
'''

README = '# sample\n\nAn example of what the view shows:\n\n' + TAG_SHAPED + '\nend\n'
SCRIPT = '#!/bin/sh\n# @file libexample\necho hello\n'
NEW_TEST = "def test_doc():\n    text = '''\n" + TAG_SHAPED + "'''\n    assert text\n"

GIT = ['git', '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false']
OLD_TIME = 981173106  # 2001-02-03 04:05:06 UTC: times the fuzzer sets on purpose


def sh(args, cwd, check=True, **kw):
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300, **kw)
    if check and result.returncode != 0:
        raise RuntimeError(f'{args} in {cwd}: {result.returncode}\n{result.stdout}{result.stderr}')
    return result


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def code_lines(text):
    """Lines of a checkout file worth editing: unique, non-blank."""
    lines = [l for l in text.split('\n') if l.strip()]
    return sorted({l for l in lines if lines.count(l) == 1})
