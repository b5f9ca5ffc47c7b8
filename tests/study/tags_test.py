#!/usr/bin/env python3
"""The tag reader (scripts/study/tags.py) on real `anchorfs render` output of every style and view:
every block kind and field read back, lean's short and grouped references resolving to the same
ids as paper's full ones, caps, lookalikes, and the field table kept in step with the contract.

Usage: tags_test.py ANCHORFS_BINARY
"""
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "scripts" / "study"))
sys.path.insert(0, str(HERE))
import scripted_agent  # noqa: E402
import tags  # noqa: E402

ANCHORFS = None

FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": ("import os\nfrom pkg.b import helper, Base\n\n\nclass Thing(Base):\n"
                 "    def run(self):\n        return helper(os.environ.get('X'))\n\n"
                 "    @staticmethod\n    def stop():\n        return Thing().run()\n\n\n"
                 "def main():\n    return Thing().run()\n\n\nmain()\n"),
    "pkg/b.py": ("class Base:\n    pass\n\n\ndef helper(x):\n    return x\n\n\n"
                 "def run():\n    return helper(2)\n"),
    "pkg/c.py": ("from pkg.b import helper, Base\n\n\ndef use():\n    Base()\n"
                 "    return helper(1)\n\n\ndef again():\n    return use() + helper(3)\n"),
    "lib/b.py": "def other():\n    return 1\n",
}
# Fields lean may leave out because the code beside the block shows them (docs/tag-format.md,
# "Nothing the code beside it shows"); every other field it must carry with paper's values.
LEAN_MAY_OMIT = {"PARENT", "CHILDREN", "IMPORTS", "BASE"}


def render(repo, path, style, view, *extra):
    return subprocess.run([ANCHORFS, "render", "--no-cache", "--style", style, "--view", view,
                           *extra, str(repo), path], check=True, capture_output=True,
                          text=True).stdout


def resolved_blocks(repo, path, text, files):
    """{(kind, full id): {field: [full ids or labels]}} of one served text, either style."""
    defs = {p: scripted_agent.definitions((repo / p).read_text()) for p in files}
    names = {p: [n for n, _, _ in d] for p, d in defs.items()}
    served_defs = scripted_agent.definitions(text)
    out = {}
    for block in tags.blocks(text):
        if block.kind == "file":
            entity = tags.resolve_path(block.name, files)
        elif block.style == "paper":
            entity = block.name
        else:
            entity = next(f"{path}:{n}" for n, k, first in served_defs
                          if first == block.next_line and k == block.kind)
        fields = {}
        for name, values in block.fields.items():
            ids = []
            for value in values:
                part, written = tags.split_reference(value)
                if part is None:
                    kind, file = tags.resolve_plain(value, files, names[path])
                    ids.append(file if kind == "file" else
                               f"{path}:{tags.resolve_name(value, names[path])}")
                else:
                    file = tags.resolve_path(part, files)
                    ids.append(f"{file}:{tags.resolve_name(written, names[file])}"
                               if file else value)
            fields[name] = sorted(ids)  # lean groups values by file: the same set, reordered
        out[(block.kind, entity)] = fields
    return out


class TagReader(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="anchorfs-tags-")
        cls.repo = Path(cls.tmp.name)
        for path, text in FILES.items():
            (cls.repo / path).parent.mkdir(parents=True, exist_ok=True)
            (cls.repo / path).write_text(text)
        cls.files = set(FILES)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_field_table_matches_the_contract(self):
        doc = (HERE.parents[1] / "docs" / "tag-format.md").read_text()
        table = doc.split("## Fields and their order", 1)[1].split("\n## ", 1)[0]
        self.assertEqual(tuple(re.findall(r"^\| `([A-Z_]+)` \|", table, re.M)), tags.FIELDS)

    def test_paper_blocks_of_every_kind(self):
        text = render(self.repo, "pkg/a.py", "paper", "topo")
        got = {(b.kind, b.name): b.fields for b in tags.blocks(text)}
        self.assertEqual(got[("file", "pkg/a.py")],
                         {"IMPORTS": ["pkg/b.py"], "CALLS": ["main"]})
        self.assertEqual(got[("class", "pkg/a.py:Thing")]["BASE"], ["pkg/b.py:Base"])
        self.assertEqual(got[("function", "pkg/a.py:Thing.run")]["CALLED_BY"],
                         ["Thing.stop", "main"])
        self.assertEqual(got[("function", "pkg/a.py:main")]["CALLED_BY"], ["pkg/a.py"])
        lines = text.splitlines()
        for block in tags.blocks(text):  # each block ends right above the code it tags
            self.assertFalse(lines[block.next_line].lstrip().startswith("#"))

    def test_lean_blocks_of_every_kind(self):
        text = render(self.repo, "pkg/a.py", "lean", "topo")
        got = {(b.kind, b.name): b for b in tags.blocks(text)}
        self.assertTrue({"file", "class", "function"} <= {kind for kind, _ in got})
        self.assertTrue(all(b.style == "lean" for b in got.values()))
        self.assertEqual(tags.resolve_path(got[("file", "pkg/a.py")].name, self.files),
                         "pkg/a.py")

    def test_lean_reads_back_to_paper_in_every_view(self):
        for view in ("topo", "inv", "dense"):
            for path in ("pkg/a.py", "pkg/b.py", "pkg/c.py"):
                with self.subTest(view=view, path=path):
                    paper = resolved_blocks(self.repo, path,
                                            render(self.repo, path, "paper", view), self.files)
                    lean = resolved_blocks(self.repo, path,
                                           render(self.repo, path, "lean", view), self.files)
                    self.assertTrue(paper)
                    for key, fields in lean.items():  # what lean says, paper says
                        self.assertIn(key, paper)
                        for name, ids in fields.items():
                            self.assertEqual(ids, paper[key][name], (key, name))
                    for key, fields in paper.items():  # and lean omits only what code shows
                        needed = {f for f in fields if f not in LEAN_MAY_OMIT}
                        if needed:
                            self.assertEqual(needed - set(lean.get(key, {})), set(), key)

    def test_groups_and_caps(self):
        self.assertEqual(tags.split_values("b.py:(Base, helper), run, … (+3 more)"),
                         (["b.py:Base", "b.py:helper", "run"], 3))
        self.assertEqual(tags.split_values("a.py:f, ... (+1 more)"), (["a.py:f"], 1))
        # lean v5: `; `-separated groups, `PATH: names` for another file's.
        self.assertEqual(
            tags.split_values("View.get; pkg/http.py: HttpResponse.__init__, HttpResponse.close"),
            (["View.get", "pkg/http.py:HttpResponse.__init__", "pkg/http.py:HttpResponse.close"], 0))
        self.assertEqual(tags.split_values("run, stop; pkg/a.py: f; … (+2 more)"),
                         (["run", "stop", "pkg/a.py:f"], 2))
        self.assertEqual(tags.split_values("pkg/m.py"), (["pkg/m.py"], 0))
        self.assertEqual(tags.split_values("entry_point:serve, app.route"),
                         (["entry_point:serve", "app.route"], 0))
        # lean v5: a path once per block, `*/PART` when it comes back.
        block = tags.blocks("# @function f\n# CALLS: pkg/http.py: get; lib/io.py: put\n"
                            "# CALLED_BY: */http.py: post; */io.py\ndef f():\n")[0]
        self.assertEqual(block.fields["CALLED_BY"], ["pkg/http.py:post", "lib/io.py"])
        text = render(self.repo, "pkg/b.py", "paper", "topo", "--max-links", "1")
        helper = next(b for b in tags.blocks(text) if b.name == "pkg/b.py:helper")
        self.assertEqual(len(helper.fields["CALLED_BY"]), 1)
        self.assertEqual(helper.more["CALLED_BY"], 3)  # pkg/c.py:use, again; pkg/b.py:run

    def test_short_forms_read_back(self):
        files = {"pkg/b.py", "lib/b.py", "pkg/core/numbers.py", "pkg/__init__.py",
                 "pkg/core/__init__.py"}
        self.assertEqual(tags.resolve_path("numbers.py", files), "pkg/core/numbers.py")
        self.assertEqual(tags.resolve_path("core/__init__.py", files), "pkg/core/__init__.py")
        self.assertIsNone(tags.resolve_path("b.py", files))  # two of them: not a short form
        self.assertEqual(tags.resolve_path("pkg/b.py", files), "pkg/b.py")
        names = ["Poly", "Poly.degree", "PurePoly.degree", "Poly.expand", "inner", "outer.inner"]
        self.assertEqual(tags.resolve_name("expand", names), "Poly.expand")
        self.assertEqual(tags.resolve_name("Poly.degree", names), "Poly.degree")
        self.assertEqual(tags.resolve_name("inner", names), "inner")
        self.assertIsNone(tags.resolve_name("degree", names))
        self.assertEqual(tags.resolve_plain("b.py", {"pkg/b.py"}, ["run"]), ("file", "pkg/b.py"))
        self.assertEqual(tags.resolve_plain("run", {"pkg/b.py", "bin/run"}, ["run"]),
                         ("name", "run"))

    def test_lookalikes_are_code(self):
        for text in ["# === Function Annotation ===\n# function: a.py:f\nx = 1\n",  # unclosed
                     "# === Function Annotation ===\n# function: a.py:f\nx = 1\n"
                     "# === Function Annotation ===\n",  # code inside
                     "# @function f\nx = 1\n",  # a header with no field
                     "# @function f\n# CALLS: g\n# PARENT: C\n",  # fields out of order
                     "# CALLS: g\n", "", "#\n", "# @\n", "# === File Annotation ===\n"]:
            with self.subTest(text=text):
                got = tags.blocks(text)
                if text.startswith("# @function f\n# CALLS"):
                    self.assertEqual([(b.name, b.fields) for b in got], [("f", {"CALLS": ["g"]})])
                else:
                    self.assertEqual(got, [])

    def test_slash_comments_and_crlf(self):
        text = ("// === Function Annotation ===\r\n// function: src/a.go:Store.Add\r\n"
                "// CALLED_BY: cmd/main.go:main\r\n// === Function Annotation ===\r\nfunc x() {}\r\n")
        [block] = tags.blocks(text)
        self.assertEqual((block.name, block.fields, block.next_line),
                         ("src/a.go:Store.Add", {"CALLED_BY": ["cmd/main.go:main"]}, 4))


if __name__ == "__main__":
    ANCHORFS = str(Path(sys.argv.pop(1)).resolve())
    unittest.main()
