#!/usr/bin/env python3
"""The study harness end to end: two fixture tasks in real git repositories, real traced mounts,
the scripted agent, conditions none, topo (paper) and topo/lean, two repeats; every measure
against hand-worked values; failed agents reported as errors.

Task `shop`: the statement names `total_price`, but the bug is in Cart.checkout, which reaches
it through pricing.subtotal, and cart.py never spells `total_price`. Grep finds pricing.py only;
without tags the agent stops there, with tags it follows CALLED_BY to cart.py (a structural hop).
Task `geo`: the statement names `circle_area`, the bug is in it; grep finds shapes.py (defining
it, read first) and report.py (its caller). The hop shapes.py -> report.py is exploratory with or
without tags: shapes.py's tags name geo/report.py:describe, but grep listed report.py (it spells
`circle_area`), so the agent did not need the tag to get there (docs/study.md: a file a search
found is never a structural hop), and shapes.py's code mentions neither "report" nor "describe".
Lean tags lead the agent the same way as paper's.

Usage: study_e2e_test.py ANCHORFS_BINARY
"""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
HARNESS = HERE.parents[1] / "scripts" / "study" / "run_study.py"
AGENT = HERE / "scripted_agent.py"
ANCHORFS = None


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout


def make_repo(root, files, fixed):
    """A repository whose first commit holds `files`; the gold patch turns them into `fixed`."""
    root.mkdir(parents=True)
    git(root, "init", "-q")
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    base = git(root, "rev-parse", "HEAD").strip()
    for path, text in fixed.items():
        (root / path).write_text(text)
    patch = git(root, "diff")
    git(root, "checkout", "-q", "--", ".")
    return base, patch


SHOP = {
    "shop/__init__.py": "",
    "shop/pricing.py": ("def total_price(items):\n    return sum(items)\n\n\n"
                        "def subtotal(items):\n    return total_price(items)\n"),
    "shop/cart.py": ("from shop.pricing import subtotal\n\n\nclass Cart:\n"
                     "    def __init__(self, items):\n        self.items = items\n\n"
                     "    def checkout(self, discount):\n        return subtotal(self.items)\n"),
}
SHOP_FIX = {"shop/cart.py": SHOP["shop/cart.py"].replace(
    "return subtotal(self.items)\n", "return subtotal(self.items) - discount\n")}

GEO = {
    "geo/__init__.py": "",
    "geo/shapes.py": "def circle_area(r):\n    return 3.14 * r\n",
    "geo/report.py": ("from geo.shapes import circle_area\n\n\n"
                      "def describe(r):\n    return circle_area(r)\n"),
}
GEO_FIX = {"geo/shapes.py": GEO["geo/shapes.py"].replace("3.14 * r\n", "3.14 * r * r\n")}


class StudyEndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="anchorfs-study-")
        root = Path(cls.tmp.name)
        tasks = []
        for name, files, fixed, statement in [
                ("shop", SHOP, SHOP_FIX, "Checkout ignores the discount; `total_price` looks fine."),
                ("geo", GEO, GEO_FIX, "`circle_area` is wrong for r=2.")]:
            base, patch = make_repo(root / name, files, fixed)
            tasks.append({"id": name, "repo": str(root / name), "base_commit": base,
                          "problem_statement": statement, "patch": patch})
        (root / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
        cls.out = root / "out"
        harness = subprocess.run(
            [sys.executable, str(HARNESS), "--tasks", str(root / "tasks.jsonl"), "--agent",
             f"{sys.executable} {AGENT}", "--views", "none,topo/paper,topo/lean", "--repeats", "2",
             "--k", "1,3,5", "--out", str(cls.out), "--anchorfs", ANCHORFS, "--timeout", "120",
             "--max-links", "5", "--mount-opt=--hub-threshold=40"],
            capture_output=True, text=True)
        if harness.returncode != 0:
            raise AssertionError(f"harness failed:\n{harness.stdout}\n{harness.stderr}")
        cls.results = json.loads((cls.out / "results.json").read_text())
        cls.root = root

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_of(self, task, view, repeat=0):
        return next(r for r in self.results["runs"]
                    if (r["task"], r["view"], r["repeat"]) == (task, view, repeat))

    def test_gold_locations_come_from_the_patch_hunks(self):
        run = self.run_of("shop", "none")
        self.assertEqual(run["gold_files"], ["shop/cart.py"])
        self.assertEqual(run["gold_functions"], ["shop/cart.py:Cart.checkout"])
        run = self.run_of("geo", "topo/paper")
        self.assertEqual(run["gold_functions"], ["geo/shapes.py:circle_area"])

    def test_answers_follow_the_links_only_where_tags_show_them(self):
        self.assertEqual(self.run_of("shop", "none")["answer"],
                         {"files": ["shop/pricing.py"], "functions": ["shop/pricing.py:total_price"]})
        self.assertEqual(self.run_of("shop", "topo/paper")["answer"],
                         {"files": ["shop/pricing.py", "shop/cart.py"],
                          "functions": ["shop/pricing.py:total_price", "shop/pricing.py:subtotal",
                                        "shop/cart.py:Cart.checkout"]})
        self.assertEqual(self.run_of("geo", "topo/paper")["answer"]["functions"],
                         ["geo/shapes.py:circle_area", "geo/report.py:describe"])
        for task in ("shop", "geo"):  # lean's short references read back to the same ids
            self.assertEqual(self.run_of(task, "topo/lean")["answer"],
                             self.run_of(task, "topo/paper")["answer"])

    def test_trace_measures_per_run(self):
        expected = {  # (task, view): rounds, hops, structural, lexical, trajectory
            ("shop", "none"): (2, 0, 0, 0, ["shop/pricing.py"]),
            ("shop", "topo/paper"): (3, 1, 1, 0, ["shop/pricing.py", "shop/cart.py"]),
            ("geo", "none"): (3, 1, 0, 0, ["geo/shapes.py", "geo/report.py"]),
            ("geo", "topo/paper"): (3, 1, 0, 0, ["geo/shapes.py", "geo/report.py"]),
        }
        expected.update({(task, "topo/lean"): value for (task, view), value in expected.items()
                         if view == "topo/paper"})
        for (task, view), (rounds, hops, structural, lexical, trajectory) in expected.items():
            for repeat in (0, 1):
                m = self.run_of(task, view, repeat)["trace_measures"]
                with self.subTest(task=task, view=view, repeat=repeat):
                    self.assertEqual(m["searches"], 1)
                    self.assertEqual(m["rounds"], rounds)
                    self.assertEqual(m["hops"], hops)
                    self.assertEqual(m["structural"], structural)
                    self.assertEqual(m["lexical"], lexical)
                    self.assertEqual(m["trajectory"], trajectory)
                    self.assertEqual(m["dropped"], 0)

    def test_table_matches_the_hand_worked_values(self):
        table = self.results["table"]
        # none: shop misses everything, geo hits everything.
        # topo: shop's cart.py is second of two files and Cart.checkout third of three functions.
        expected = {
            "none": {"File@1": .5, "File@3": .5, "File@5": .5, "Func@1": .5, "Func@3": .5,
                     "Func@5": .5, "Pass@1": .5, "Pass@3": .5, "Rounds": 2.5, "LFR": 0.0},
            "topo/paper": {"File@1": .5, "File@3": 1, "File@5": 1, "Func@1": .5, "Func@3": 1,
                     "Func@5": 1, "Pass@1": 1, "Pass@3": 1, "Rounds": 3, "LFR": 0.5},
        }
        expected["topo/lean"] = expected["topo/paper"]
        for view, values in expected.items():
            for name, value in values.items():
                with self.subTest(view=view, measure=name):
                    self.assertAlmostEqual(table[view][name]["mean"], value)
                    if table[view][name]["std"] is not None:
                        self.assertEqual(table[view][name]["std"], 0)  # a deterministic agent
        self.assertEqual(table["none"]["Func@5"]["ci95"], [0.0, 1.0])
        self.assertEqual(table["topo/paper"]["Func@5"]["ci95"], [1.0, 1.0])
        self.assertEqual(table["none"]["LFR"]["per_task"], {"geo": 0.0, "shop": None})
        self.assertEqual(table["topo/paper"]["LFR"]["per_task"], {"geo": 0.0, "shop": 1.0})
        self.assertEqual([table[v]["failed"] for v in ("none", "topo/paper", "topo/lean")],
                         [0, 0, 0])

    def test_mount_configuration_in_traces_and_results(self):
        none = self.run_of("shop", "none")["trace_header"]
        self.assertEqual(none["style"], none["options"]["style"])  # the mount's default
        for view, style in (("topo/paper", "paper"), ("topo/lean", "lean")):
            run = self.run_of("shop", view)
            header = run["trace_header"]
            with self.subTest(view=view):
                self.assertEqual(header["style"], style)
                self.assertEqual(header["options"]["view"], view.split("/")[0])
                self.assertEqual(header["options"]["style"], style)
                self.assertEqual(header["options"]["max_links"], "5")
                self.assertEqual(header["options"]["hub_threshold"], "40")
                self.assertEqual(header["options"]["watch"], "no")
        self.assertEqual(self.results["mounts"]["topo/lean"],
                         ["--view", "topo", "--style", "lean", "--max-links", "5",
                          "--hub-threshold=40"])
        self.assertIn("- topo/lean: `anchorfs mount --view topo --style lean --max-links 5 "
                      "--hub-threshold=40`", (self.out / "results.md").read_text())

    def test_a_failing_agent_is_an_error_row_and_a_failed_exit(self):
        out = self.root / "failing"
        command = [sys.executable, str(HARNESS), "--tasks", str(self.root / "tasks.jsonl"),
                   "--agent", "echo boom >&2; exit 3", "--views", "topo", "--style", "lean",
                   "--out", str(out),
                   "--anchorfs", ANCHORFS, "--timeout", "60", "--no-plots"]
        harness = subprocess.run(command, capture_output=True, text=True)
        self.assertEqual(harness.returncode, 1, harness.stderr)
        self.assertIn("error: 2 of 2 runs failed", harness.stderr)
        text = (out / "results.md").read_text()
        self.assertIn("| shop | topo | 0 | ERROR: agent exit 3: boom |", text)
        self.assertIn("| topo | 2 |", text)
        results = json.loads((out / "results.json").read_text())
        self.assertEqual(results["failed"], 2)
        self.assertEqual(results["mounts"]["topo"], ["--view", "topo", "--style", "lean"])
        self.assertIsNone(results["table"]["topo"]["Func@1"]["mean"])  # no zeros for crashes
        allowed = subprocess.run(command + ["--allow-failures"], capture_output=True, text=True)
        self.assertEqual(allowed.returncode, 0, allowed.stderr)

    def test_identical_repeats_are_perfectly_stable(self):
        for view in ("none", "topo/paper", "topo/lean"):
            for task in ("shop", "geo"):
                s = self.results["stability"][view][task]
                self.assertEqual((s["runs"], s["jaccard_distance"], s["edit_distance"]), (2, 0, 0))

    def test_the_budget_bounds_link_following(self):
        # shop under topo follows one link (pricing.py -> cart.py); depth 0 or one visit in all
        # stops the agent at its grep hit.
        for budget in ("--max-depth 0", "--max-visits 1"):
            out = self.root / f"budget{budget.replace(' ', '')}"
            harness = subprocess.run(
                [sys.executable, str(HARNESS), "--tasks", str(self.root / "tasks.jsonl"),
                 "--agent", f"{sys.executable} {AGENT} {budget}", "--views", "topo/paper",
                 "--out", str(out), "--anchorfs", ANCHORFS, "--timeout", "60", "--no-plots"],
                capture_output=True, text=True)
            self.assertEqual(harness.returncode, 0, harness.stderr)
            shop = next(r for r in json.loads((out / "results.json").read_text())["runs"]
                        if r["task"] == "shop")
            with self.subTest(budget=budget):
                self.assertEqual(shop["trace_measures"]["trajectory"], ["shop/pricing.py"])
                self.assertNotIn("shop/cart.py", shop["answer"]["files"])

    def test_missing_matplotlib_is_said_not_skipped(self):
        # python3 -S leaves out site-packages, so matplotlib cannot be imported: a virtualenv's case.
        out = self.root / "noplots"
        harness = subprocess.run(
            [sys.executable, "-S", str(HARNESS), "--tasks", str(self.root / "tasks.jsonl"),
             "--agent", f"{sys.executable} {AGENT}", "--views", "none", "--out", str(out),
             "--anchorfs", ANCHORFS, "--timeout", "60"], capture_output=True, text=True)
        self.assertEqual(harness.returncode, 0, harness.stderr)
        self.assertIn("warning: plots NOT WRITTEN", harness.stderr)
        self.assertIn("Plots: NOT WRITTEN", (out / "results.md").read_text())
        self.assertIn("install python3-matplotlib", (out / "results.md").read_text())
        self.assertFalse((out / "localization.png").exists())

    def test_markdown_and_plots_are_written(self):
        text = (self.out / "results.md").read_text()
        self.assertIn("| topo/paper | 0 | 0.500 ± 0.000 [0.000, 1.000] | 1.000 ± 0.000 "
                      "[1.000, 1.000]", text)
        for name in ("localization.png", "rounds.png", "lfr.png"):
            self.assertEqual((self.out / name).read_bytes()[:8], b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    ANCHORFS = str(Path(sys.argv.pop(1)).resolve())
    unittest.main()
