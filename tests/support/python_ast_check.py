#!/usr/bin/env python3
"""Checks that tags are comments only: every served .py file whose source Python can parse must
parse to the same AST (ast.dump equal). Usage: python_ast_check.py SOURCE SERVED [--max-bytes N]
SERVED is a mount of SOURCE, or a directory of tagged copies (anchorfs export, or one view's
directory written by render_corpus_check). Prints one line per mismatch and a summary; exits 1
on any mismatch."""

import argparse
import ast
import os
import stat
import sys
import warnings


def parse(data):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.dump(ast.parse(data))
    except (SyntaxError, ValueError, RecursionError, MemoryError, UnicodeDecodeError):
        return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("mount")
    parser.add_argument("--max-bytes", type=int, default=4 << 20)
    args = parser.parse_args()
    sys.setrecursionlimit(20000)
    source, mount = os.fsencode(args.source), os.fsencode(args.mount)
    checked = mismatched = 0
    for directory, dirs, files in os.walk(source):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(directory, name)
            if not name.endswith(b".py"):
                continue
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode) or st.st_size > args.max_bytes:
                continue
            served_path = os.path.join(mount, os.path.relpath(path, source))
            try:
                with open(path, "rb") as f:
                    original = f.read()
                with open(served_path, "rb") as f:
                    served = f.read()
            except OSError:
                continue  # unreadable through the mount: the C++ test judges that case
            expected = parse(original)
            if expected is None or served == original:
                continue
            checked += 1
            if parse(served) != expected:
                mismatched += 1
                print("AST differs:", os.fsdecode(os.path.relpath(path, source)))
    print(f"ast_check: {checked} tagged files parsed, {mismatched} mismatched")
    return 1 if mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
