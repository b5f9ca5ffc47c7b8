#!/usr/bin/env python3
"""Unit tests of the study harness's gold extraction and measures (scripts/study)."""
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "study"))
import gold  # noqa: E402
import metrics  # noqa: E402

SOURCE = """import os


class A:
    x = 1

    @staticmethod
    def f():
        return 1

    def g(self):
        def inner():
            return 2
        return inner()


def h():
    return 3
"""

PATCH = """diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -5,3 +5,3 @@ class A:
-    x = 1
+    x = 2
 
     @staticmethod
@@ -12,4 +12,5 @@ class A:
         def inner():
-            return 2
+            return 3
         return inner()
+        # trailing
 
@@ -18,2 +19,5 @@
 def h():
     return 3
+
+def new():
+    pass
diff --git a/new.py b/new.py
--- /dev/null
+++ b/new.py
@@ -0,0 +1 @@
+x = 1
"""


class Gold(unittest.TestCase):
    def test_changed_and_inserted_lines_per_old_file(self):
        changes = gold.patch_changes(PATCH)
        self.assertEqual(set(changes), {"m.py"})  # new files have nothing to localize
        lines, insertions = changes["m.py"]
        self.assertEqual(lines, {5, 13})
        self.assertEqual(insertions, [(5, 6), (13, 14), (14, 15), (19, 20), (19, 20), (19, 20)])

    def test_hunks_map_to_innermost_enclosing_functions(self):
        with tempfile.TemporaryDirectory() as d:
            Path(d, "m.py").write_text(SOURCE)
            files, functions = gold.gold_locations(d, PATCH)
        # x = 1 is class level (no function); `return 2` is in A.g.inner; the comment added
        # after `return inner()` sits between A.g's last line and a blank line outside it
        # (no function); def new() is added after h's last line (no function).
        self.assertEqual(files, ["m.py"])
        self.assertEqual(functions, ["m.py:A.g.inner"])

    def test_decorators_belong_to_their_function(self):
        spans = gold.function_spans(SOURCE)
        self.assertIn((7, 9, "A.f"), spans)
        self.assertEqual(gold.innermost(spans, 7), "A.f")
        self.assertIsNone(gold.innermost(spans, 5))


class Measures(unittest.TestCase):
    def test_hit_at_k_needs_every_gold_location(self):
        self.assertEqual(metrics.hit_at_k(["a", "b", "c"], ["b"], 1), 0.0)
        self.assertEqual(metrics.hit_at_k(["a", "b", "c"], ["b"], 2), 1.0)
        self.assertEqual(metrics.hit_at_k(["a", "b", "c"], ["a", "c"], 2), 0.0)
        self.assertEqual(metrics.hit_at_k(["a", "b", "c"], ["a", "c"], 3), 1.0)
        self.assertIsNone(metrics.hit_at_k(["a"], [], 1))

    def test_pass_at_k_is_the_unbiased_estimator(self):
        self.assertAlmostEqual(metrics.pass_at_k(4, 1, 1), 0.25)
        self.assertAlmostEqual(metrics.pass_at_k(4, 1, 2), 0.5)  # 1 - C(3,2)/C(4,2) = 1 - 3/6
        self.assertAlmostEqual(metrics.pass_at_k(4, 0, 3), 0.0)
        self.assertAlmostEqual(metrics.pass_at_k(2, 1, 5), 1.0)  # k beyond n: any success

    def test_mean_std_skip_undefined_values(self):
        self.assertEqual(metrics.mean([1, None, 3]), 2)
        self.assertAlmostEqual(metrics.std([1, 3, None]), 1.0)
        self.assertIsNone(metrics.mean([None]))

    def test_bootstrap_is_seeded_and_brackets_the_mean(self):
        values = [0, 1, 1, 0, 1, 1, 1, 0, 1, 1]
        ci = metrics.bootstrap_ci(values)
        self.assertEqual(ci, metrics.bootstrap_ci(values))
        self.assertLess(ci[0], 0.7)
        self.assertGreater(ci[1], 0.7)
        self.assertEqual(metrics.bootstrap_ci([1, 1, 1]), [1.0, 1.0])


if __name__ == "__main__":
    unittest.main()
