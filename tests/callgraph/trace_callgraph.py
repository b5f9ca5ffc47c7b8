#!/usr/bin/env python3
"""Fixture check: runs a call-graph fixture and prints the calls Python actually made.

Usage: trace_callgraph.py CASE_DIR [--diff | --complete-keys]
       trace_callgraph.py --check CORPUS_DIR ACCEPTED_FILE

Runs CASE_DIR/main.py under a profiler and reports caller -> callee edges between functions of
the fixture, named as in PyCG's format. With --diff, compares them with CASE_DIR/callgraph.json.
It is a cross-check for hand-derived expectations, not their source: it cannot see calls that
the program does not execute, and it reports what Python does at run time, which differs from
a static call graph for generator resumption (the consumer, not the `gen()` call site, resumes
the body) and for repository functions called back by builtins (`map(f, xs)` shows the caller
of `map`). Such edges are marked so a reviewer can judge them.

--check runs every case of the corpus (each in a fresh interpreter, writing no bytecode) and
fails unless each runs and every difference is listed in ACCEPTED_FILE, one
`CASE: run-only|expected-only CALLER -> CALLEE` per line (the deliberate differences).

--complete-keys rewrites CASE_DIR/callgraph.json with a key for every module, class, function
and lambda of the fixture (hand-written edges are kept as they are), sorted.
"""
import ast
import glob
import json
import os
import runpy
import subprocess
import sys
import threading

SKIPPED_CODE = {"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"}
CO_GENERATOR = 0x20
CO_COROUTINE = 0x80


class Namer:
    """Maps code objects of the fixture to PyCG dotted names."""

    def __init__(self, root):
        self.root = root
        self.lambdas = {}  # path -> {lineno: [names]}
        self.class_bodies = {}  # path -> {(qualname-ish dotted, lineno)}
        self.definitions = {}  # path -> dotted names of its classes, functions and lambdas

    def module_name(self, path):
        rel = os.path.relpath(path, self.root)
        if rel.startswith(".."):
            return None
        rel = rel[:-3] if rel.endswith(".py") else rel
        if rel.endswith("/__init__") or rel == "__init__":
            rel = rel[: -len("/__init__")] if "/" in rel else rel
        return rel.replace("/", ".")

    def index(self, path):
        if path in self.lambdas:
            return
        lambdas, classes, definitions = {}, set(), set()
        with open(path) as f:
            tree = ast.parse(f.read())
        self._walk_scope(tree.body, [], lambdas, classes, definitions)
        self.definitions[path] = definitions
        self.lambdas[path] = lambdas
        self.class_bodies[path] = classes

    def _walk_scope(self, body, scope, lambdas, classes, definitions):
        # Lambdas are numbered from 1 per enclosing scope, in source order.
        counter = [0]

        def visit(node):
            for child in ast.iter_child_nodes(node):
                handle(child)

        def handle(child):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for d in child.decorator_list:
                    handle(d)
                for d in child.args.defaults + [k for k in child.args.kw_defaults if k]:
                    handle(d)
                definitions.add(".".join(scope + [child.name]))
                self._walk_scope(child.body, scope + [child.name], lambdas, classes, definitions)
            elif isinstance(child, ast.ClassDef):
                for d in child.decorator_list + child.bases + [k.value for k in child.keywords]:
                    handle(d)
                # A decorated class body's code starts at its first decorator.
                first_line = min([child.lineno] + [d.lineno for d in child.decorator_list])
                classes.add((".".join(scope + [child.name]), first_line))
                definitions.add(".".join(scope + [child.name]))
                self._walk_scope(child.body, scope + [child.name], lambdas, classes, definitions)
            elif isinstance(child, ast.Lambda):
                counter[0] += 1
                name = f"<lambda{counter[0]}>"
                lambdas.setdefault(child.lineno, []).append(".".join(scope + [name]))
                definitions.add(".".join(scope + [name]))
                for d in child.args.defaults + [k for k in child.args.kw_defaults if k]:
                    handle(d)
                self._walk_scope([ast.Expr(child.body)], scope + [name], lambdas, classes,
                                 definitions)
            else:
                visit(child)

        for stmt in body:
            handle(stmt)

    def name(self, code):
        path = os.path.realpath(code.co_filename)
        module = self.module_name(path)
        if module is None or not os.path.exists(path):
            return None
        self.index(path)
        if code.co_name == "<module>":
            return module
        if code.co_name in SKIPPED_CODE:
            return "<skip>"
        if code.co_name == "<lambda>":
            names = self.lambdas[path].get(code.co_firstlineno, [])
            if len(names) == 1:
                return module + "." + names[0]
            return module + ".<ambiguous-lambda@%d>" % code.co_firstlineno
        qual = code.co_qualname.replace(".<locals>", "")
        if (qual, code.co_firstlineno) in self.class_bodies[path]:
            return "<class-body>"
        return module + "." + qual


def trace(case_dir):
    root = os.path.realpath(case_dir)
    namer = Namer(root)
    edges = {}
    started_generators = set()

    def caller_of(frame):
        f = frame.f_back
        while f is not None and namer.name(f.f_code) == "<skip>":
            f = f.f_back
        if f is None:
            return None
        n = namer.name(f.f_code)
        if n == "<class-body>":  # class bodies are PyCG nodes of their own
            module = namer.module_name(os.path.realpath(f.f_code.co_filename))
            return module + "." + f.f_code.co_qualname.replace(".<locals>", "")
        return n

    def profile(frame, event, arg):
        if event != "call":
            return
        callee = namer.name(frame.f_code)
        if callee is None or callee in ("<skip>", "<class-body>"):
            return
        caller = caller_of(frame)
        if caller is None:
            return
        note = ""
        if frame.f_code.co_flags & (CO_GENERATOR | CO_COROUTINE):
            if id(frame) in started_generators:
                note = "resumed-generator"
            else:
                started_generators.add(id(frame))
                note = "generator-start"
        edges.setdefault((caller, callee), set()).add(note)

    sys.path.insert(0, root)
    old_cwd = os.getcwd()
    os.chdir(root)
    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        runpy.run_path(os.path.join(root, "main.py"), run_name="__main__")
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
        os.chdir(old_cwd)
    return edges


def all_nodes(case_dir):
    """Every module, class, function and lambda of the fixture, by PyCG name."""
    root = os.path.realpath(case_dir)
    namer = Namer(root)
    nodes = set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for filename in sorted(filenames):
            if not filename.endswith(".py"):
                continue
            path = os.path.join(dirpath, filename)
            module = namer.module_name(path)
            namer.index(path)
            nodes.add(module)
            nodes.update(module + "." + d for d in namer.definitions[path])
    return nodes


def complete_keys(case_dir):
    """Adds a key with no callees for every node the hand-written callgraph.json lacks."""
    path = os.path.join(case_dir, "callgraph.json")
    with open(path) as f:
        graph = json.load(f)
    for node in all_nodes(case_dir):
        graph.setdefault(node, [])
    with open(path, "w") as f:
        f.write("{\n")
        items = sorted((k, sorted(set(v))) for k, v in graph.items())
        f.write(",\n".join("  %s: %s" % (json.dumps(k), json.dumps(v)) for k, v in items))
        f.write("\n}\n")


def main():
    if sys.argv[1] == "--check":
        return check_corpus(sys.argv[2], sys.argv[3])
    case_dir = sys.argv[1]
    if "--complete-keys" in sys.argv:
        complete_keys(case_dir)
        return 0
    edges = trace(case_dir)
    observed = {e for e, notes in edges.items() if "resumed-generator" not in notes or len(notes) > 1}
    if "--diff" not in sys.argv:
        for (a, b), notes in sorted(edges.items()):
            print(f"{a} -> {b}" + (f"   [{','.join(sorted(n for n in notes if n))}]" if any(notes) else ""))
        return 0
    with open(os.path.join(case_dir, "callgraph.json")) as f:
        expected = {(a, b) for a, bs in json.load(f).items() for b in bs}
    for e in sorted(observed - expected):
        print(f"  run-only:      {e[0]} -> {e[1]}  {sorted(n for n in edges[e] if n)}")
    for e in sorted(expected - observed):
        print(f"  expected-only: {e[0]} -> {e[1]}")
    return 0


def check_corpus(corpus, accepted_file):
    with open(accepted_file) as f:
        accepted = {line.strip() for line in f if line.strip() and not line.startswith("#")}
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    found, failures = set(), []
    cases = sorted(os.path.dirname(os.path.relpath(p, corpus))
                   for p in glob.glob(os.path.join(corpus, "*", "*", "callgraph.json")))
    for case in cases:
        result = subprocess.run([sys.executable, "-B", os.path.abspath(__file__),
                                 os.path.join(corpus, case), "--diff"],
                                capture_output=True, text=True, env=env, timeout=60)
        if result.returncode != 0:
            failures.append(f"{case}: does not run: {result.stderr.strip()[-300:]}")
            continue
        for line in result.stdout.splitlines():
            if line.startswith("  run-only:") or line.startswith("  expected-only:"):
                kind, edge = line.strip().split(":", 1)
                edge = edge.strip().split("  [")[0].strip()
                found.add(f"{case}: {kind} {edge}")
    failures += [f"not accepted: {d}" for d in sorted(found - accepted)]
    failures += [f"accepted but gone: {d}" for d in sorted(accepted - found)]
    for failure in failures:
        print(failure)
    print(f"{len(cases)} cases run, {len(found)} accepted differences")
    return 1 if failures or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
