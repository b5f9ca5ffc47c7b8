#!/usr/bin/env python3
"""Generates the hostile corpus: one small repository per category of hostile input.

Usage: make_corpus.py OUT [--mode ci|long] [--only CAT[,CAT...]] [--list]

For each category CAT it writes OUT/CAT/repo/ (the repository to mount) and OUT/CAT/manifest.json
(what the tests expect of particular files). Targets that must stay outside every repository
(for symlinks that point out of it) go to OUT/CAT/outside/. Nothing is ever written into the
source tree of anchorfs: OUT is a temporary directory chosen by the caller.

Manifest entries name files by their repository-relative path as hex bytes (names need not be
UTF-8) and say what the served file must be:
  unchanged  served byte-identical to the source (unparseable, binary, too large, ...)
  tagged     served with at least one tag block, and strip(served) == source
  skipped    served unchanged and named in `anchorfs mount --verbose` output
  error      reading it through the mount fails (EACCES/EIO/ENOENT), without a hang
Every other regular file must satisfy: served == source, or strip(served) == source.
"""

import argparse
import json
import os
import random
import shutil
import socket
import stat
import sys

LONG_LINE_BYTES = 10 << 20
# Sizes per mode: CI keeps the whole hostile suite within a couple of minutes on 2 cores.
MODES = {
    "ci": {"huge_bytes": 5 << 20, "many_files": 20_000, "def_depth": 2_000,
           "dense_line_bytes": 2 << 20},
    "long": {"huge_bytes": 50 << 20, "many_files": 100_000, "def_depth": 10_000,
             "dense_line_bytes": LONG_LINE_BYTES},
}
EXPR_DEPTH = 10_000  # parentheses, brackets, calls, lambdas: one line, cheap at any mode

CONTROL = b'''"""A well-formed module: the tests expect tags here, proving the category did not
switch analysis off for the whole repository."""


def helper(value):
    return value + 1


def caller(value):
    return helper(value) * 2


class Base:
    def run(self):
        return caller(1)


class Derived(Base):
    def run(self):
        return super().run() + helper(2)
'''


class Corpus:
    """Writes one category's repository and records expectations."""

    def __init__(self, root, name):
        self.dir = os.path.join(root, name)
        self.repo = os.path.join(self.dir, "repo")
        self.outside = os.path.join(self.dir, "outside")
        self.expect = []
        self.notes = []
        os.makedirs(self.repo, exist_ok=True)

    def path(self, rel):
        rel = rel.encode() if isinstance(rel, str) else rel
        return os.path.join(os.fsencode(self.repo), rel)

    def write(self, rel, data, expect=None):
        full = self.path(rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        if expect:
            self.mark(rel, expect)
        return full

    def mark(self, rel, expect):
        rel = rel.encode() if isinstance(rel, str) else rel
        self.expect.append({"path_hex": rel.hex(), "expect": expect})

    def control(self, rel="control.py"):
        self.write(rel, CONTROL, "tagged")

    def finish(self, description):
        manifest = {"description": description, "files": self.expect, "notes": self.notes}
        with open(os.path.join(self.dir, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1)


def cat_syntax_errors(c, _):
    c.control()
    c.write("missing_colon.py", "def f()\n    return 1\n")
    c.write("bad_indent.py", "def f():\nreturn 1\n  x = 2\n")
    c.write("garbage.py", "def def class ((( ]]] :: lambda lambda\n@@@\n")
    c.write("half_good.py", "def good():\n    return 1\n\ndef bad(:\n    pass\n\ndef later():\n"
            "    return good()\n")
    c.write("py2_print.py", 'print "hello"\nexec "x = 1"\n')
    c.write("unbalanced.py", "x = (1, 2]\ndef f():\n    return {1: 2)\n")
    c.write("keywords.py", "class = 1\ndef return():\n    pass\n")


def cat_partial_code(c, _):
    c.control()
    c.write("empty.py", b"", "unchanged")
    c.write("only_comment.py", "# nothing here\n", "unchanged")
    c.write("only_whitespace.py", "   \n\n\t\n")
    c.write("truncated_def.py", "def f(a, b")
    c.write("truncated_body.py", "def f():\n")
    c.write("unclosed_string.py", 'def f():\n    return """never closed\n\ndef g():\n    pass\n')
    c.write("unclosed_paren.py", "def f():\n    return g(1, 2,\n")
    c.write("decorator_only.py", "@decorator\n")
    c.write("no_newline_at_eof.py", "def f():\n    return 1")
    c.write("cut_mid_token.py", CONTROL[: len(CONTROL) // 2 + 3])


def cat_nul_bytes(c, _):
    c.control()
    c.write("nul_in_code.py", b"def f():\n    return 1\x00\n\ndef g():\n    return f()\n")
    c.write("nul_in_string.py", b"def f():\n    return '\x00\x00'\n\ndef g():\n    return f()\n")
    c.write("nul_in_comment.py", b"# a \x00 comment\ndef f():\n    return 1\n")
    c.write("all_nul.py", b"\x00" * 4096, "unchanged")
    c.write("nul_at_start.py", b"\x00def f():\n    pass\n")


def cat_invalid_utf8(c, _):
    c.control()
    c.write("bad_in_comment.py", b"# caf\xe9 \xff\xfe\ndef f():\n    return 1\n\ndef g():\n"
            b"    return f()\n")
    c.write("bad_in_string.py", b"def f():\n    return '\xc3\x28 \xa0\xa1'\n\ndef g():\n"
            b"    return f()\n")
    c.write("bad_in_identifier.py", b"def f\xff():\n    return 1\n")
    c.write("overlong.py", b"x = '\xc0\xaf \xe0\x80\xaf'\ndef f():\n    pass\n")
    c.write("surrogates.py", b"x = '\xed\xa0\x80\xed\xbf\xbf'\ndef f():\n    pass\n")
    c.write("latin1_declared.py", b"# -*- coding: latin-1 -*-\nname = 'Andr\xe9'\n"
            b"def f():\n    return name\n\ndef g():\n    return f()\n")
    c.write("truncated_sequence.py", b"def f():\n    return 1\n# \xe2\x82")


def cat_bom(c, _):
    c.control()
    bom = b"\xef\xbb\xbf"
    c.write("bom.py", bom + CONTROL, "tagged")
    c.write("bom_shebang.py", bom + b"#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n" + CONTROL)
    c.write("bom_only.py", bom, "unchanged")
    c.write("double_bom.py", bom + bom + b"def f():\n    pass\n")
    c.write("bom_crlf.py", bom + CONTROL.replace(b"\n", b"\r\n"))


def cat_line_endings(c, _):
    c.control()
    c.write("crlf.py", CONTROL.replace(b"\n", b"\r\n"), "tagged")
    c.write("lone_cr.py", CONTROL.replace(b"\n", b"\r"))
    lines = CONTROL.split(b"\n")
    mixed = b"".join(line + (b"\n", b"\r\n", b"\r")[i % 3] for i, line in enumerate(lines))
    c.write("mixed.py", mixed)
    c.write("crlf_no_final.py", CONTROL.rstrip(b"\n").replace(b"\n", b"\r\n"))
    c.write("cr_cr_lf.py", CONTROL.replace(b"\n", b"\r\r\n"))
    c.write("crlf_in_string.py", b'def f():\n    return """a\r\nb\rc"""\n\ndef g():\n'
            b"    return f()\n")


def cat_whitespace(c, _):
    c.control()
    c.write("tabs.py", CONTROL.replace(b"    ", b"\t"), "tagged")
    c.write("form_feed.py", b"\x0cdef f():\n\x0c    return 1\n\x0c\n\ndef g():\n    return f()\n")
    c.write("mixed_tabs_spaces.py", b"class A:\n\tdef f(self):\n\t    return 1\n        def g(self):\n"
            b"\t\treturn self.f()\n")
    c.write("vertical_tab.py", b"def f():\x0b\n    return 1\n")
    c.write("nbsp_indent.py", "def f():\n\u00a0   return 1\n".encode())
    c.write("trailing_ws.py", b"def f():   \t\n    return 1  \t \n\n\ndef g():  \n    return f()\n")


def cat_continuations(c, _):
    c.control()
    c.write("before_def.py", b"x = 1 + \\\n    2\n\\\ndef f():\n    return x\n\n\\\n\\\n"
            b"def g():\n    return f()\n")
    c.write("continued_def.py", b"def \\\nf():\n    return 1\n\ndef g():\n    return f()\n")
    c.write("continued_decorator.py", b"def deco(fn):\n    return fn\n\n@deco \\\n\ndef f():\n"
            b"    return deco(1)\n")
    c.write("continued_class.py", b"class \\\n  A(\\\nobject):\n    def m(self):\n"
            b"        return 1\n\nclass B(A):\n    def m(self):\n        return A.m(self)\n")
    c.write("trailing_backslash.py", b"def f():\n    return 1\n\\")
    c.write("crlf_backslash.py", b"x = 1 + \\\r\n    2\r\n\\\r\ndef f():\r\n    return x\r\n")
    c.write("indented_continuation.py", b"class A:\n    x = 1\n    \\\n    def m(self):\n"
            b"        return self.x\n    def n(self):\n        return self.m()\n")


def nested_blocks(keyword_line, depth):
    parts = []
    for i in range(depth):
        parts.append(b" " * i + keyword_line(i) + b"\n")
    parts.append(b" " * depth + b"pass\n")
    return b"".join(parts)


def cat_deep_nesting(c, sizes):
    c.control()
    n = EXPR_DEPTH
    c.write("parens.py", b"x = " + b"(" * n + b"1" + b")" * n + b"\n\ndef f():\n    return x\n")
    c.write("brackets.py", b"x = " + b"[" * n + b"]" * n + b"\n")
    c.write("braces.py", b"x = " + b"{1: " * n + b"1" + b"}" * n + b"\n")
    c.write("calls.py", b"def f(v):\n    return v\n\nx = " + b"f(" * n + b"1" + b")" * n + b"\n")
    c.write("lambdas.py", b"x = " + b"lambda: " * n + b"1\n")
    c.write("attributes.py", b"x = a" + b".b" * n + b"\n")
    c.write("binary_ops.py", b"x = 1" + b" + 1" * (10 * n) + b"\n")
    c.write("unary_not.py", b"x = " + b"not " * n + b"True\n")
    c.write("subscripts.py", b"x = a" + b"[0]" * n + b"\n")
    c.write("unbalanced_open.py", b"x = " + b"(" * n + b"\n")
    c.write("string_concat.py", b"x = " + b"'a' " * n + b"\n")
    depth = sizes["def_depth"]
    c.write("nested_defs.py", nested_blocks(lambda i: b"def f%d():" % i, depth))
    c.write("nested_classes.py", nested_blocks(lambda i: b"class C%d:" % i, depth))
    c.write("nested_ifs.py", nested_blocks(lambda i: b"if x%d:" % i, depth))
    c.write("nested_ifs_one_line.py", b"if a: " * n + b"pass\n")
    c.notes.append(f"nested defs/classes/ifs: {depth} levels; expressions: {n} levels")


def cat_huge_file(c, sizes):
    c.control()
    target = sizes["huge_bytes"]
    chunks, size, i = [], 0, 0
    while size < target:
        chunk = (b"def function_%d(value):\n    return function_%d(value) + %d\n\n\n"
                 b"class Class_%d(Class_%d):\n    def method(self):\n        return function_%d(1)\n\n\n"
                 % (i, max(i - 1, 0), i, i, max(i - 1, 0), i))
        chunks.append(chunk)
        size += len(chunk)
        i += 1
    data = b"class Class_0:\n    pass\n\n\n" + b"".join(chunks)
    # The default analysis limit is 16 MiB: below it the file must be tagged, above served as is.
    c.write("huge.py", data, "tagged" if len(data) < (16 << 20) else "skipped")
    c.notes.append(f"huge.py: {len(data)} bytes, {i} functions and classes")


def cat_long_line(c, sizes):
    c.control()
    c.write("long_string_line.py", b"x = '" + b"a" * LONG_LINE_BYTES + b"'\n\ndef f():\n"
            b"    return x\n\ndef g():\n    return f()\n")
    c.write("long_comment_line.py", b"#" + b"c" * LONG_LINE_BYTES + b"\ndef f():\n    pass\n")
    # Lines dense with tokens cost analysis one syntax node per token: 10 MB of them takes
    # seconds of CPU and over a GB (docs/reliability.md), so CI uses 2 MB.
    dense = sizes["dense_line_bytes"]
    c.write("long_list_line.py", b"x = [" + b"1, " * (dense // 3) + b"]\n")
    c.write("no_newline_at_all.py", b"y = 0" + b"; y += 1" * (dense // 8))
    c.notes.append(f"10 MB string and comment lines; {dense} byte token-dense lines")


def cat_long_identifiers(c, _):
    c.control()
    for size in (255, 64 << 10, 1 << 20):
        name = b"n" + b"x" * (size - 1)
        c.write(f"ident_{size}.py", b"def " + name + b"():\n    return 1\n\n\ndef caller():\n"
                b"    return " + name + b"()\n\n\nclass " + name.upper() + b"(" + name + b"):\n"
                b"    pass\n")
    c.write("long_dotted.py", b"import " + b".".join([b"m" * 200] * 200) + b"\n")


def cat_many_files(c, sizes):
    n = sizes["many_files"]
    d = c.path("pkg")
    os.makedirs(d, exist_ok=True)
    for i in range(n):
        with open(os.path.join(d, b"mod_%06d.py" % i), "wb") as f:
            nxt = (i + 1) % n
            f.write(b"from pkg.mod_%06d import f_%d\n\n\ndef f_%d():\n    return f_%d()\n"
                    % (nxt, nxt, i, nxt))
    open(os.path.join(d, b"__init__.py"), "wb").close()
    c.mark(b"pkg/mod_000000.py", "tagged")
    c.notes.append(f"{n} modules in one directory, each importing and calling the next")


def cat_odd_names(c, _):
    c.control()
    names = [
        b"with space.py", b" leading space.py", b"trailing space .py", b"new\nline.py",
        b"tab\tname.py", b"non_utf8_\xff\xfe.py", b"latin1_caf\xe9.py", "emoji_\U0001F600.py".encode(),
        "nfd_cafe\u0301.py".encode(), "nfc_caf\u00e9.py".encode(), b"-leading-dash.py",
        b"colon:in:name.py", b"hash#name.py", b"back\\slash.py", b"quote'\"name.py",
        b"=== Function Annotation ===.py", b"star*glob?.py", b"x" * 252 + b".py",
        b"noextension", b".hidden.py", b"UPPER.PY", b"double.py.py",
    ]
    body = b"def f():\n    return 1\n\n\ndef g():\n    return f()\n"
    for name in names:
        c.write(name, body)
    for dname in (b"dir with space", b"dir\nnewline", b"dir_\xff", b"pkg.with.dots"):
        c.write(dname + b"/__init__.py", b"")
        c.write(dname + b"/inner.py", body)


def cat_symlinks(c, _):
    c.control()
    os.makedirs(c.outside, exist_ok=True)
    secret = os.path.join(c.outside, "outside_secret.py")
    with open(secret, "w") as f:
        f.write("def outside_secret_function():\n    return 'OUTSIDE_MARKER'\n\n\n"
                "class OutsideSecretClass:\n    pass\n")
    os.makedirs(os.path.join(c.outside, "pkg"), exist_ok=True)
    with open(os.path.join(c.outside, "pkg", "__init__.py"), "w") as f:
        f.write("def outside_package_function():\n    return 1\n")
    # A FIFO outside: analysis that followed the link would block forever on open().
    os.mkfifo(os.path.join(c.outside, "trap_fifo.py"))
    c.write("real.py", "def real_function():\n    return 1\n\n\ndef caller():\n"
            "    return real_function()\n")
    c.write("importer.py", "from outside_link import outside_secret_function\n"
            "from outside_abs import OutsideSecretClass\nimport outside_pkg\n\n\n"
            "def use():\n    return outside_secret_function(), OutsideSecretClass(),"
            " outside_pkg.outside_package_function()\n")
    links = {
        "loop_a.py": "loop_b.py", "loop_b.py": "loop_a.py", "self_loop.py": "self_loop.py",
        "dir_loop": ".", "parent_loop": "..", "dangling.py": "does/not/exist.py",
        "dangling_dir": "nowhere/", "absolute_etc": "/etc/hostname", "absolute_root": "/",
        "outside_link.py": os.path.relpath(secret, c.repo), "outside_abs.py": secret,
        "outside_pkg": os.path.join(c.outside, "pkg"), "outside_fifo.py":
        os.path.join(c.outside, "trap_fifo.py"), "alias.py": "real.py",
        "proc_self.py": "/proc/self/fd/0", "dev_zero.py": "/dev/zero",
        "sub/up_and_out.py": "../../outside/outside_secret.py", "empty_name_target": "./",
    }
    for name, target in links.items():
        full = c.path(name)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        os.symlink(target, full)
    c.notes.append("outside/ holds OUTSIDE_MARKER definitions that must never appear in tags")


def cat_special_files(c, _):
    c.control()
    os.mkfifo(c.path("fifo.py"))
    os.mkfifo(c.path("fifo_module.py"))
    c.write("imports_fifo.py", "import fifo_module\n\n\ndef f():\n    return fifo_module.x()\n")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(c.path("socket.py"))
    sock.close()
    # Device nodes need CAP_MKNOD; /dev/zero as a .py file would make a reader loop forever.
    for name, (major, minor) in {"zero.py": (1, 5), "null.py": (1, 3), "urandom.py": (1, 9)}.items():
        try:
            os.mknod(c.path(name), stat.S_IFCHR | 0o644, os.makedev(major, minor))
        except PermissionError:
            c.notes.append(f"{name}: mknod not permitted here")


def cat_unreadable(c, _):
    c.control()
    c.write("secret.py", "def hidden():\n    return 1\n", "error")
    os.chmod(c.path("secret.py"), 0)
    c.write("write_only.py", "def w():\n    return 1\n", "error")
    os.chmod(c.path("write_only.py"), 0o200)
    c.write("locked/inside.py", "def inside():\n    return 1\n")
    os.chmod(c.path("locked"), 0)
    c.write("no_search/inside.py", "def inside():\n    return 1\n")
    os.chmod(c.path("no_search"), 0o644)  # readable listing, cannot enter
    c.write("no_list/inside.py", "def inside():\n    return 1\n")
    os.chmod(c.path("no_list"), 0o311)  # can enter, cannot list
    c.write("importer.py", "import secret\nfrom locked import inside\n\n\ndef f():\n"
            "    return secret.hidden(), inside.inside()\n")


def cat_binary_py(c, _):
    c.control()
    rng = random.Random(7)
    c.write("random.py", bytes(rng.getrandbits(8) for _ in range(64 << 10)), "unchanged")
    c.write("elf.py", open(sys.executable, "rb").read(256 << 10), "unchanged")
    c.write("gzip.py", b"\x1f\x8b\x08\x00" + bytes(rng.getrandbits(8) for _ in range(4096)),
            "unchanged")
    c.write("png.py", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 16, "unchanged")
    c.write("utf16.py", "\ufeffdef f():\n    return 1\n\ndef g():\n    return f()\n"
            .encode("utf-16-le"), "unchanged")
    c.write("pyc.py", b"\xa7\r\r\n\x00\x00\x00\x00" + bytes(rng.getrandbits(8) for _ in range(2048)),
            "unchanged")
    c.write("mostly_text.py", CONTROL + b"\x00\x01\x02\x03" * 1024 + CONTROL)


def cat_tag_lookalikes(c, _):
    c.control()
    block = (b"# === Function Annotation ===\n# function: lookalike.py:f\n# CALLED_BY: g\n"
             b"# === Function Annotation ===\n")
    # strip() could not tell these lines from our blocks, so such files are served unchanged.
    c.write("already_tagged.py", block + b"def f():\n    return 1\n\n\ndef g():\n    return f()\n",
            "skipped")
    c.write("half_block.py", b"# === Class Annotation ===\nclass A:\n    pass\n\n\nclass B(A):\n"
            b"    pass\n", "skipped")
    c.write("delimiter_in_string.py", b's = """\n# === File Annotation ===\n"""\n\n\ndef f():\n'
            b"    return s\n\n\ndef g():\n    return f()\n", "skipped")
    c.write("indented_block.py", b"class A:\n    # === Function Annotation ===\n    # function: x\n"
            b"    # === Function Annotation ===\n    def m(self):\n        return 1\n", "skipped")
    c.notes.append("files that already contain tag delimiter lines: served unchanged, named by --verbose")


def cat_mutations(c, _):
    c.control()
    for name in ("deleted.py", "replaced.py", "truncated.py", "grown.py", "same_size.py",
                 "dir_replaced/inner.py", "to_fifo.py"):
        c.write(name, CONTROL)
    c.notes.append("the test changes these after the mount is up, before the first read")


CATEGORIES = {
    "syntax_errors": (cat_syntax_errors, "syntax errors of many kinds"),
    "partial_code": (cat_partial_code, "truncated and unfinished code, empty files"),
    "nul_bytes": (cat_nul_bytes, "NUL bytes in code, strings and comments"),
    "invalid_utf8": (cat_invalid_utf8, "invalid, overlong and truncated UTF-8"),
    "bom": (cat_bom, "UTF-8 byte order marks"),
    "line_endings": (cat_line_endings, "CRLF, lone CR, mixed and missing line endings"),
    "whitespace": (cat_whitespace, "tabs, form feeds, vertical tabs, odd indentation"),
    "continuations": (cat_continuations, "backslash continuations, one right before a def"),
    "deep_nesting": (cat_deep_nesting, "10k-level expressions, deeply nested blocks"),
    "huge_file": (cat_huge_file, "one very large .py file"),
    "long_line": (cat_long_line, "a single 10 MB line"),
    "long_identifiers": (cat_long_identifiers, "identifiers up to 1 MB"),
    "many_files": (cat_many_files, "tens of thousands of files in one directory"),
    "odd_names": (cat_odd_names, "names with spaces, newlines, non-UTF-8 bytes"),
    "symlinks": (cat_symlinks, "loops, dangling, absolute and escaping symlinks"),
    "special_files": (cat_special_files, "FIFOs, sockets and device nodes named .py"),
    "unreadable": (cat_unreadable, "files and directories without permission"),
    "binary_py": (cat_binary_py, "binary files named .py"),
    "tag_lookalikes": (cat_tag_lookalikes, "sources that already contain tag delimiters"),
    "mutations": (cat_mutations, "files changed between analysis and read"),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?")
    parser.add_argument("--mode", choices=sorted(MODES), default="ci")
    parser.add_argument("--only", default="", help="comma-separated categories")
    parser.add_argument("--list", action="store_true", help="print the categories and exit")
    args = parser.parse_args()
    if args.list:
        print("\n".join(CATEGORIES))
        return 0
    if not args.out:
        parser.error("OUT is required")
    wanted = [name for name in args.only.split(",") if name] or list(CATEGORIES)
    unknown = [name for name in wanted if name not in CATEGORIES]
    if unknown:
        parser.error("unknown categories: " + ", ".join(unknown))
    sizes = MODES[args.mode]
    for name in wanted:
        target = os.path.join(args.out, name)
        if os.path.lexists(target):
            shutil.rmtree(target)
        corpus = Corpus(args.out, name)
        build, description = CATEGORIES[name]
        build(corpus, sizes)
        corpus.finish(description)
    return 0


if __name__ == "__main__":
    sys.exit(main())
