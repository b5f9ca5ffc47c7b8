#!/usr/bin/env python3
"""Precision and recall of call-graph edges, PyCG JSON format (node -> list of callees).

  score_callgraph.py EXPECTED.json ACTUAL.json [--root DIR]
  score_callgraph.py CASES_DIR --actual-dir DIR [--actual-name NAME]
  score_callgraph.py CASES_DIR --run 'anchorfs graph {case} --format pycg'

In directory mode every directory under CASES_DIR holding a `callgraph.json` is a case (the
layout of PyCG-style benchmarks: `<category>/<case>/main.py` + `callgraph.json`); its actual
graph is read from the same relative path under --actual-dir, or produced by running the --run
command with {case} replaced by the case directory (stdout is the graph). Cases are grouped by
their parent directory into categories.

Only repository-internal edges are scored: both ends must be a module of the case (a .py file
under it, `a/b.py` -> `a.b`, `a/__init__.py` -> `a`) or something defined in one, so edges to
builtins (`<builtin>.print`) and external libraries are ignored on both sides. Without a case
directory (two files, no --root) every edge is scored.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys


def load_edges(graph):
    return {(src, dst) for src, dsts in graph.items() for dst in dsts}


def case_modules(case_dir):
    modules = set()
    for dirpath, _dirnames, filenames in os.walk(case_dir):
        for filename in filenames:
            if not filename.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, filename), case_dir)[:-3]
            parts = rel.split(os.sep)
            if parts[-1] == "__init__" and len(parts) > 1:
                parts = parts[:-1]
            modules.add(".".join(parts))
    return modules


def is_internal(name, modules):
    if name in modules:
        return True
    head = name
    while "." in head:
        head = head.rsplit(".", 1)[0]
        if head in modules:
            return True
    return False


def internal_edges(edges, modules):
    if modules is None:
        return set(edges)
    return {(a, b) for a, b in edges if is_internal(a, modules) and is_internal(b, modules)}


class Score:
    def __init__(self):
        self.expected = self.actual = self.matched = 0
        self.missing, self.spurious = [], []

    def add(self, label, expected, actual):
        self.expected += len(expected)
        self.actual += len(actual)
        self.matched += len(expected & actual)
        self.missing += [(label, e) for e in sorted(expected - actual)]
        self.spurious += [(label, e) for e in sorted(actual - expected)]

    def merge(self, other):
        self.expected += other.expected
        self.actual += other.actual
        self.matched += other.matched
        self.missing += other.missing
        self.spurious += other.spurious

    @property
    def precision(self):
        return self.matched / self.actual if self.actual else 1.0

    @property
    def recall(self):
        return self.matched / self.expected if self.expected else 1.0


def read_json(path):
    with open(path) as f:
        return json.load(f)


def actual_graph(case_dir, rel, args):
    if args.run:
        command = [part.replace("{case}", case_dir) for part in shlex.split(args.run)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
        if result.returncode != 0:
            raise RuntimeError("%s: exit %d: %s" % (rel, result.returncode, result.stderr.strip()))
        return json.loads(result.stdout)
    path = os.path.join(args.actual_dir, rel, args.actual_name)
    if not os.path.exists(path):
        raise RuntimeError("%s: no %s" % (rel, path))
    return read_json(path)


def find_cases(root):
    cases = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if "callgraph.json" in filenames:
            cases.append(dirpath)
            dirnames[:] = []  # a case's own packages are not cases
    return cases


def print_table(by_category, total, out):
    width = max([len(c) for c in by_category] + [8])
    out.write("%-*s %8s %8s %8s %9s %7s\n" % (width, "category", "expected", "actual",
                                              "matched", "precision", "recall"))
    rows = sorted(by_category.items()) + [("TOTAL", total)]
    for name, s in rows:
        out.write("%-*s %8d %8d %8d %9.3f %7.3f\n" % (width, name, s.expected, s.actual,
                                                     s.matched, s.precision, s.recall))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("expected", help="expected callgraph.json, or a directory of cases")
    parser.add_argument("actual", nargs="?", help="actual callgraph.json (file mode)")
    parser.add_argument("--root", help="file mode: case directory naming the internal modules")
    parser.add_argument("--actual-dir", help="directory mode: tree of actual graphs")
    parser.add_argument("--actual-name", default="callgraph.json")
    parser.add_argument("--run", help="directory mode: command printing a case's graph")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("-v", "--verbose", action="store_true", help="list differing edges")
    parser.add_argument("--min-precision", type=float, default=0.0)
    parser.add_argument("--min-recall", type=float, default=0.0)
    args = parser.parse_args()

    total = Score()
    by_category = {}
    errors = []
    if os.path.isdir(args.expected):
        if not (args.actual_dir or args.run):
            parser.error("directory mode needs --actual-dir or --run")
        root = args.expected
        for case in find_cases(root):
            rel = os.path.relpath(case, root)
            category = os.path.dirname(rel) or "."
            try:
                actual = actual_graph(case, rel, args)
            except (RuntimeError, ValueError, subprocess.TimeoutExpired) as error:
                errors.append(str(error))
                actual = {}
            modules = case_modules(case)
            score = Score()
            score.add(rel, internal_edges(load_edges(read_json(os.path.join(case, "callgraph.json"))), modules),
                      internal_edges(load_edges(actual), modules))
            by_category.setdefault(category, Score()).merge(score)
            total.merge(score)
    else:
        if not args.actual:
            parser.error("file mode needs EXPECTED.json and ACTUAL.json")
        modules = case_modules(args.root) if args.root else None
        total.add(".", internal_edges(load_edges(read_json(args.expected)), modules),
                  internal_edges(load_edges(read_json(args.actual)), modules))

    print_table(by_category, total, sys.stdout)
    if args.verbose:
        for label, (a, b) in total.missing:
            print("missing   %s: %s -> %s" % (label, a, b))
        for label, (a, b) in total.spurious:
            print("spurious  %s: %s -> %s" % (label, a, b))
    for error in errors:
        print("error: " + error, file=sys.stderr)
    ok = total.precision >= args.min_precision and total.recall >= args.min_recall
    return 0 if ok and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
