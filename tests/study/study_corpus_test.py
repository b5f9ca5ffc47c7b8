#!/usr/bin/env python3
"""The study harness on real code: tasks built from Debian's django (python3-django), the scripted
agent under none, topo/paper and topo/lean; fails if any run fails (agent crash, time limit,
mount), if a run's trace does not say its style, if an agent read no block of its condition's
style, or if a run without tags scores link-following.

Tasks (found with `ast` in the installed version, so the test follows Debian's updates): the gold
patch edits one function's first statement. `direct`: the statement names the gold function.
`caller`: it names django.utils.crypto's get_random_string; the gold is a function calling
get_random_secret_key (which calls get_random_string) in a file that never spells
get_random_string: two CALLED_BY steps from the named definition, out of grep's reach.

Usage: study_corpus_test.py ANCHORFS_BINARY [PACKAGE_DIR]
"""
import ast
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
HARNESS = HERE.parents[1] / "scripts" / "study" / "run_study.py"
AGENT = HERE / "scripted_agent.py"
ANCHORFS = None
PACKAGE = Path("/usr/lib/python3/dist-packages/django")
TARGET = ("django/utils/crypto.py", "get_random_string")
INTERMEDIATE = "get_random_secret_key"


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout


def functions(repo):
    """{path: [(qualified name, node)]} of every .py file's functions (tests left out)."""
    found = {}
    for path in sorted(repo.rglob("*.py")):
        rel = str(path.relative_to(repo))
        if "/tests/" in rel or "/test/" in rel:
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        items = []

        def walk(node, prefix):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    if not isinstance(child, ast.ClassDef):
                        items.append((prefix + child.name, child))
                    walk(child, prefix + child.name + ".")

        walk(tree, "")
        found[rel] = items
    return found


def calls(node, name):
    return any(isinstance(n, ast.Call) and
               getattr(n.func, "id", getattr(n.func, "attr", None)) == name
               for n in ast.walk(node))


def patch_first_statement(repo, path, node):
    """The gold patch: the function's first statement line gains a trailing comment."""
    lines = (repo / path).read_text().splitlines(keepends=True)
    body = node.body[0]
    if isinstance(body, ast.Expr) and isinstance(getattr(body, "value", None), ast.Constant) \
            and len(node.body) > 1:
        body = node.body[1]  # past the docstring
    index = body.lineno - 1
    original = lines[index]
    lines[index] = original.rstrip("\n") + "  # fixed\n"
    (repo / path).write_text("".join(lines))
    patch = git(repo, "diff")
    git(repo, "checkout", "-q", "--", path)
    return patch


class StudyOnDjango(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="anchorfs-study-corpus-")
        root = Path(cls.tmp.name)
        repo = root / "repo"
        shutil.copytree(PACKAGE, repo / PACKAGE.name,
                        ignore=lambda d, names: [n for n in names if n == "__pycache__" or
                                                 (Path(d, n).is_file() and not n.endswith(".py"))])
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "base")
        base = git(repo, "rev-parse", "HEAD").strip()
        defs = functions(repo)
        target_path, target = TARGET
        direct = next(node for name, node in defs[target_path] if name == target)
        cls.texts = {p: (repo / p).read_text() for p in defs}
        chain = [(p, n, node) for p, items in sorted(defs.items()) for n, node in items
                 if target not in cls.texts[p] and calls(node, INTERMEDIATE)]
        if not chain:
            raise AssertionError(f"{PACKAGE}: no function calls {INTERMEDIATE} in a file not "
                                 f"spelling {target}: pick another chain for this django")
        path, name, node = chain[0]
        cls.tasks = [
            {"id": "direct", "repo": str(repo), "base_commit": base,
             "problem_statement": f"`{target}` returns the wrong length.",
             "patch": patch_first_statement(repo, target_path, direct)},
            {"id": "caller", "repo": str(repo), "base_commit": base,
             "problem_statement": f"Secrets are weak; `{target}` looks fine.",
             "patch": patch_first_statement(repo, path, node)},
        ]
        cls.gold_caller = f"{path}:{name}"
        (root / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in cls.tasks))
        cls.out = root / "out"
        cls.harness = subprocess.run(
            [sys.executable, str(HARNESS), "--tasks", str(root / "tasks.jsonl"), "--agent",
             f"{sys.executable} {AGENT} --max-depth 2 --max-visits 12 --max-hits 6",
             "--views", "none,topo/paper,topo/lean", "--out", str(cls.out), "--anchorfs", ANCHORFS,
             "--timeout", "240", "--cache-dir", str(root / "cache"), "--no-plots"],
            capture_output=True, text=True)
        cls.results = json.loads((cls.out / "results.json").read_text()) \
            if (cls.out / "results.json").exists() else None

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_no_run_fails(self):
        self.assertEqual(self.harness.returncode, 0, self.harness.stdout + self.harness.stderr)
        self.assertEqual(self.results["failed"], 0)
        self.assertEqual(len(self.results["runs"]), 6)

    def test_every_run_reads_the_tags_of_its_style(self):
        for run in self.results["runs"]:
            style = run["view"].partition("/")[2] or run["trace_header"]["options"]["style"]
            log = (Path(run["trace"]).parent / "agent.log").read_text()
            with self.subTest(task=run["task"], view=run["view"]):
                self.assertEqual(run["trace_header"]["style"], style)
                if run["view"] == "none":
                    self.assertIn("blocks: none", log)
                else:
                    self.assertIn(f"{style} function", log)
                    self.assertIn(f"{style} file", log)

    def test_no_link_no_structural_hop(self):
        for run in self.results["runs"]:
            if run["view"] == "none":
                self.assertIn(run["trace_measures"]["lfr"], (None, 0.0))

    def test_tags_lead_beyond_what_grep_finds(self):
        """Answers name functions in files that never spell the searched name only with tags."""
        target = TARGET[1]
        for run in self.results["runs"]:
            beyond = [f for f in run["answer"]["functions"]
                      if target not in self.texts.get(f.split(":")[0], target)]
            with self.subTest(task=run["task"], view=run["view"]):
                if run["view"] == "none":
                    self.assertEqual(beyond, [])
                else:
                    self.assertNotEqual(beyond, [])


if __name__ == "__main__":
    ANCHORFS = str(Path(sys.argv.pop(1)).resolve())
    if len(sys.argv) > 1:
        PACKAGE = Path(sys.argv.pop(1))
    unittest.main()
