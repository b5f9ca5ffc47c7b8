#!/usr/bin/env python3
"""Generates a deterministic synthetic Python repository of a given size (in lines) for benchmarks.

The tree looks like real library code: nested packages with __init__.py re-exports, modules with
absolute and relative imports, class hierarchies spanning modules, methods and functions calling
each other across modules, decorators, nested closures, constants, docstrings and comments.
The same --lines/--seed always produce byte-identical output; the output is valid Python.

    scripts/gen_synthetic.py --lines 100000 --seed 1 --out /tmp/synth-100k
"""

import argparse
import ast
import os
import random
import sys

GENERATOR_VERSION = 2

NOUNS = [
    "matrix", "token", "node", "graph", "cache", "index", "record", "schema", "field", "query",
    "stream", "buffer", "handler", "router", "session", "config", "model", "vector", "symbol",
    "expr", "series", "frame", "layout", "widget", "event", "signal", "policy", "rule", "term",
    "domain", "ring", "poly", "factor", "basis", "kernel", "plan", "ledger", "batch", "shard",
    "channel", "message", "payload", "cursor", "column", "table", "view", "template", "context",
]
VERBS = [
    "build", "parse", "render", "compute", "resolve", "load", "store", "merge", "split", "apply",
    "collect", "validate", "normalize", "transform", "encode", "decode", "emit", "visit",
    "reduce", "expand", "simplify", "evaluate", "format", "update", "register", "lookup",
    "fetch", "flush", "scan", "walk", "check", "convert", "derive", "select", "sort", "prepare",
]
ROLES = [
    "Base", "Mixin", "Manager", "Visitor", "Builder", "Printer", "Solver", "Adapter", "Proxy",
    "Registry", "Backend", "Handler", "Factory", "Loader", "Writer", "Reader", "Set", "Map",
]
PACKAGE_NAMES = [
    "core", "utils", "backends", "parsing", "printing", "solvers", "algebra", "storage", "io",
    "sql", "forms", "views", "models", "geometry", "physics", "stats", "plotting", "sets",
    "logic", "calculus", "series", "tensor", "matrices", "polys", "combinatorics", "contrib",
    "handlers", "middleware", "templates", "serializers", "management", "commands", "cache",
]
STDLIB = [
    ("import os", "os.path.join"), ("import re", "re.escape"), ("import itertools", "itertools.chain"),
    ("import functools", "functools.reduce"), ("import logging", "logging.getLogger"),
    ("from collections import OrderedDict", "OrderedDict"), ("from typing import Any", None),
    ("import math", "math.floor"), ("import operator", "operator.add"),
]
DOC_WORDS = (
    "return the result of applying the rule to every element in the given sequence and keep "
    "the original order when two entries compare equal this is used by the public interface "
    "callers should not rely on the exact representation which may change between releases "
    "values are normalised first so that equivalent inputs share one canonical form"
).split()


class Callable:
    """Something other code can call: a module-level function or a class (its constructor)."""

    def __init__(self, module, name, arity, is_class=False, methods=()):
        self.module = module
        self.name = name
        self.arity = arity
        self.is_class = is_class
        self.methods = list(methods)  # (name, arity) of public instance methods


class Module:
    def __init__(self, package, name):
        self.package = package  # tuple of package path components, starting with the root
        self.name = name
        self.exports = []

    @property
    def dotted(self):
        return ".".join(self.package + (self.name,))

    @property
    def path(self):
        return os.path.join(*self.package, self.name + ".py")


class Writer:
    def __init__(self):
        self.lines = []

    def add(self, indent, text=""):
        self.lines.append(("    " * indent + text) if text else "")

    def text(self):
        return "\n".join(self.lines) + "\n"


class Generator:
    def __init__(self, seed, root):
        self.rng = random.Random(seed)
        self.root = root
        self.packages = [(root,)]
        self.package_modules = {(root,): []}
        self.modules = []
        self.callables = []
        self.callables_near = {}  # package path prefix (2 levels) -> callables defined under it
        self.class_names = set()
        self.package_budget = 0

    # --- names ---------------------------------------------------------------------------------
    def words(self, count):
        return " ".join(self.rng.choice(DOC_WORDS) for _ in range(count))

    def sentence(self):
        text = self.words(self.rng.randint(5, 11))
        return text[0].upper() + text[1:] + "."

    def unique(self, make, taken):
        for attempt in range(1000):
            name = make()
            if attempt > 20:
                name = f"{name}{attempt}"
            if name not in taken:
                taken.add(name)
                return name
        raise RuntimeError("name space exhausted")

    def class_name(self):
        return self.unique(
            lambda: self.rng.choice(NOUNS).capitalize()
            + self.rng.choice(NOUNS).capitalize() * (self.rng.random() < 0.3)
            + self.rng.choice(ROLES),
            self.class_names,
        )

    # --- layout --------------------------------------------------------------------------------
    def maybe_tests(self, package, files):
        """Closes a package's run of modules with a tests/ subpackage, as real projects do."""
        if len(package) != 2 or self.rng.random() < 0.3:
            return 0
        exported = [c for m in self.package_modules[package] for c in m.exports]
        if not exported:
            return 0
        tests = package + ("tests",)
        self.packages.append(tests)
        self.package_modules[tests] = []
        lines = 0
        picks = self.rng.sample(exported, min(len(exported), self.rng.randint(4, 12)))
        for i in range(0, len(picks), 4):
            module = Module(tests, f"test_{self.rng.choice(NOUNS)}_{i // 4}")
            text = self.test_module(module, picks[i:i + 4])
            files.append((module.path, text))
            lines += text.count("\n")
        return lines

    def next_package(self):
        """Keeps filling the current package, or opens a new (sub)package like real trees grow."""
        if self.package_budget > 0:
            self.package_budget -= 1
            return self.current_package
        # Real trees are wide and shallow: most packages sit one or two levels below the root.
        depth = self.rng.choices([1, 2, 3], weights=[5, 4, 1])[0]
        parents = [p for p in self.packages if len(p) == depth] or [(self.root,)]
        parent = self.rng.choice(parents)
        taken = {p[-1] for p in self.packages if p[:-1] == parent} | {"tests"}
        name = self.unique(lambda: self.rng.choice(PACKAGE_NAMES), set(taken))
        package = parent + (name,)
        self.packages.append(package)
        self.package_modules[package] = []
        self.current_package = package
        self.package_budget = self.rng.randint(3, 14)
        return package

    def module_name(self, package):
        taken = set(m.name for m in self.package_modules[package]) | {"__init__"}
        taken |= {p[-1] for p in self.packages if p[:-1] == package}
        return self.unique(
            lambda: self.rng.choice(NOUNS) + ("_" + self.rng.choice(["utils", "base", "ops", "impl", "types"])
                                              if self.rng.random() < 0.4 else ""),
            taken,
        )

    # --- imports -------------------------------------------------------------------------------
    def relative_from(self, importer, target):
        """The relative module spec (like '..pkg.mod') for importing target from importer."""
        common = 0
        while (common < len(importer.package) and common < len(target.package)
               and importer.package[common] == target.package[common]):
            common += 1
        dots = "." * (len(importer.package) - common + 1)
        rest = list(target.package[common:]) + [target.name]
        return dots + ".".join(rest)

    def plan_imports(self, module):
        """Picks earlier modules to import from; returns (import lines, callables usable by name)."""
        lines = []
        usable = []
        for stmt, _ in self.rng.sample(STDLIB, self.rng.randint(1, 4)):
            lines.append(stmt)
        lines.sort()
        if self.modules and self.modules[0] is not module:
            deco = self.modules[0]
            lines.append(f"from {deco.dotted} import register, traced")
        # Only finished modules are in self.callables, so none of these is the module itself.
        candidates = self.callables
        if not candidates:
            return lines, usable, []
        # Real modules mostly import from their own neighbourhood.
        near = self.callables_near.get(module.package[:2], [])
        pool = near if near and self.rng.random() < 0.7 else candidates
        picks = self.rng.sample(pool, min(len(pool), self.rng.randint(2, 9)))
        by_module = {}
        for c in picks:
            by_module.setdefault(c.module, []).append(c)
        aliased = []
        for target, names in by_module.items():
            style = self.rng.random()
            if style < 0.45:
                lines.append(f"from {self.relative_from(module, target)} import "
                             + ", ".join(sorted(c.name for c in names)))
                usable.extend(names)
            elif style < 0.8:
                lines.append(f"from {target.dotted} import " + ", ".join(sorted(c.name for c in names)))
                usable.extend(names)
            else:
                alias = f"_{target.name}_mod"
                lines.append(f"import {target.dotted} as {alias}")
                aliased.extend((alias, c) for c in names)
        return lines, usable, aliased

    # --- code bodies ---------------------------------------------------------------------------
    def call_expr(self, ctx, args):
        """A call to something in scope, with the right number of arguments."""
        choices = []
        if ctx["local"]:
            choices.append("local")
        if ctx["usable"]:
            choices.append("usable")
        if ctx["aliased"]:
            choices.append("aliased")
        if ctx.get("self_methods"):
            choices.extend(["self", "self"])
        if not choices:
            return f"len({args[0]})"
        kind = self.rng.choice(choices)
        if kind == "self":
            name, arity = self.rng.choice(ctx["self_methods"])
            return f"self.{name}({', '.join(self.pick_args(args, arity))})"
        if kind == "aliased":
            alias, target = self.rng.choice(ctx["aliased"])
            prefix = f"{alias}."
        else:
            target = self.rng.choice(ctx[kind])
            prefix = ""
        if target.is_class and target.methods and self.rng.random() < 0.5:
            method, arity = self.rng.choice(target.methods)
            return (f"{prefix}{target.name}({', '.join(self.pick_args(args, target.arity))})"
                    f".{method}({', '.join(self.pick_args(args, arity))})")
        return f"{prefix}{target.name}({', '.join(self.pick_args(args, target.arity))})"

    def pick_args(self, args, arity):
        return [self.rng.choice(args) for _ in range(arity)]

    def body(self, w, indent, ctx, args, budget):
        """Writes a function body of about `budget` lines that uses `args` and calls into ctx."""
        rng = self.rng
        w.add(indent, f"result = {rng.choice(['[]', 'None', '0', 'dict()'])}")
        written = 1
        var = 0
        while written < budget:
            kind = rng.random()
            if kind < 0.4:
                written += self.plain_statement(w, indent, args)
                continue
            value = self.call_expr(ctx, args)
            if kind < 0.5:
                w.add(indent, f"# {self.words(rng.randint(4, 10))}")
                w.add(indent, f"value_{var} = {value}")
                args = args + [f"value_{var}"]
                var += 1
                written += 2
            elif kind < 0.6:
                w.add(indent, f"for item in {rng.choice(args)} or ():")
                w.add(indent + 1, "if item is None:")
                w.add(indent + 2, "continue")
                w.add(indent + 1, f"result = {value}")
                written += 4
            elif kind < 0.7:
                w.add(indent, f"if {rng.choice(args)} is not None and {rng.choice(args)}:")
                w.add(indent + 1, f"result = {value}")
                w.add(indent, "else:")
                w.add(indent + 1, f"result = {self.call_expr(ctx, args)}")
                written += 4
            elif kind < 0.76:
                w.add(indent, "try:")
                w.add(indent + 1, f"result = {value}")
                w.add(indent, "except (KeyError, ValueError) as exc:")
                w.add(indent + 1, f"raise RuntimeError(\"{self.words(3)}\") from exc")
                written += 4
            elif kind < 0.82:
                name = f"_{rng.choice(VERBS)}_{var}"
                var += 1
                w.add(indent, f"def {name}(element, depth=0):")
                w.add(indent + 1, f'"""{self.sentence()}"""')
                w.add(indent + 1, "if depth > MAX_DEPTH:")
                w.add(indent + 2, "return element")
                w.add(indent + 1, f"return {name}(element, depth + 1) if element else {value}")
                w.add(indent, f"result = [{name}(x) for x in ({rng.choice(args)} or ())]")
                written += 6
            elif kind < 0.88:
                w.add(indent, f"with {ctx['lock']}:")
                w.add(indent + 1, f"result = {value}")
                written += 2
            else:
                w.add(indent, f"result = {value}")
                written += 1
        w.add(indent, "return result")

    def plain_statement(self, w, indent, args):
        """A statement without calls into the project (bookkeeping, builtins); returns its lines."""
        rng = self.rng
        a, b = rng.choice(args), rng.choice(args)
        kind = rng.randrange(7)
        if kind == 0:
            w.add(indent, f"count = len({a} or ()) + {rng.randint(1, 9)}")
        elif kind == 1:
            w.add(indent, f"if isinstance({a}, (list, tuple)) and not {b}:")
            w.add(indent + 1, f"{a} = sorted({a}, key=str)")
            return 2
        elif kind == 2:
            w.add(indent, f'label = f"{{{a}!r}}{{_SEPARATOR}}{{{b}!r}}"')
        elif kind == 3:
            w.add(indent, f"items = [v for v in ({a} or ()) if v is not None][:DEFAULT_LIMIT]")
        elif kind == 4:
            w.add(indent, f'assert {a} is not None or {b} is not None, "{self.words(4)}"')
        elif kind == 5:
            w.add(indent, f"# {self.words(rng.randint(5, 12))}")
            w.add(indent, f"# {self.words(rng.randint(5, 12))}")
            return 2
        else:
            w.add(indent, f"mapping = {{key: index for index, key in enumerate({a} or ())}}")
        return 1

    def test_module(self, module, targets):
        """A pytest-style test module exercising callables of its package."""
        rng = self.rng
        w = Writer()
        w.add(0, f'"""Tests for {".".join(module.package[:-1])}."""')
        w.add(0)
        by_module = {}
        for c in targets:
            by_module.setdefault(c.module, []).append(c)
        for target, names in by_module.items():
            w.add(0, f"from {target.dotted} import " + ", ".join(sorted({c.name for c in names})))
        taken = set()
        for c in targets:
            for _ in range(rng.randint(1, 3)):
                name = self.unique(lambda: f"test_{c.name.lower()}_{rng.choice(VERBS)}", taken)
                args = ", ".join(repr(rng.choice(NOUNS)) for _ in range(c.arity))
                w.add(0)
                w.add(0)
                w.add(0, f"def {name}():")
                if c.is_class and c.methods:
                    method, arity = rng.choice(c.methods)
                    margs = ", ".join(str(rng.randint(0, 9)) for _ in range(arity))
                    w.add(1, f"obj = {c.name}({args})")
                    w.add(1, f"assert obj.{method}({margs}) is not None")
                    w.add(1, f"assert obj.source == {args.split(', ')[0] if args else 'None'}")
                else:
                    w.add(1, f"expected = {rng.randint(0, 100)}")
                    w.add(1, f"assert {c.name}({args}) != expected")
                    if rng.random() < 0.5:
                        w.add(1, f"assert {c.name}({args}, strict=True) is not None" if not c.is_class
                              else f"assert {c.name}({args}) is not None")
        return w.text()

    def function(self, w, ctx, module):
        rng = self.rng
        taken = ctx["names"]
        name = self.unique(lambda: f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}", taken)
        arity = rng.randint(1, 3)
        params = [rng.choice(NOUNS) + f"_{i}" for i in range(arity)]
        w.add(0)
        w.add(0)
        # Decorators are common but a project-wide wrapper sits on a minority of functions.
        deco = rng.random()
        if deco < 0.05:
            w.add(0, "@traced")
        elif deco < 0.08:
            w.add(0, "@register")
        elif deco < 0.14 and "import functools" in ctx["imports"]:
            w.add(0, "@functools.lru_cache(maxsize=None)")
        w.add(0, f"def {name}({', '.join(params)}, *, strict=False):")
        w.add(1, f'"""{self.sentence()}')
        w.add(0)
        w.add(1, self.sentence())
        w.add(1, '"""')
        self.body(w, 1, ctx, params + ["strict"], rng.randint(5, 34))
        fn = Callable(module, name, arity)
        ctx["local"].append(fn)
        return fn

    def klass(self, w, ctx, module):
        rng = self.rng
        name = self.class_name()
        bases = [c for c in ctx["local"] + ctx["usable"] if c.is_class]
        base = rng.choice(bases) if bases and rng.random() < 0.7 else None
        mixins = [c for c in bases if c is not base]
        extra = rng.choice(mixins) if mixins and base and rng.random() < 0.15 else None
        base_list = ", ".join(c.name for c in (base, extra) if c) or "object"
        w.add(0)
        w.add(0)
        if rng.random() < 0.08:
            w.add(0, "@register")
        w.add(0, f"class {name}({base_list}):")
        w.add(1, f'"""{self.sentence()}"""')
        w.add(0)
        w.add(1, f'KIND = "{name.lower()}"')
        w.add(1, f"PRIORITY = {rng.randint(0, 100)}")
        w.add(0)
        w.add(1, "def __init__(self, source, options=None):")
        if base:
            w.add(2, "super().__init__(source, options)")
        w.add(2, "self.source = source")
        w.add(2, "self._options = dict(options or {})")
        inherited = list(base.methods) if base else []
        methods = []
        count = rng.randint(2, 9)
        ctx_methods = dict(ctx)
        ctx_methods["self_methods"] = inherited
        for _ in range(count):
            mname = self.unique(lambda: f"{rng.choice(VERBS)}" + (f"_{rng.choice(NOUNS)}" if rng.random() < 0.6 else ""),
                                set(m for m, _ in methods + inherited) | {"source"})
            arity = rng.randint(0, 2)
            params = [f"{rng.choice(NOUNS)}_{i}" for i in range(arity)]
            w.add(0)
            deco = rng.random()
            if deco < 0.1:
                w.add(1, "@property")
                w.add(1, f"def {mname}(self):")
                w.add(2, f'"""{self.sentence()}"""')
                w.add(2, f"return self._options.get(\"{mname}\", self.source)")
                continue
            if deco < 0.18:
                w.add(1, "@classmethod")
                w.add(1, f"def {mname}(cls, source, *extra):")
                w.add(2, f'"""{self.sentence()}"""')
                w.add(2, "return cls(source, dict(enumerate(extra)))")
                continue
            if deco < 0.25:
                w.add(1, "@staticmethod")
                w.add(1, f"def {mname}({', '.join(params + ['value=None'])}):")
                w.add(2, f"# {self.words(6)}")
                w.add(2, "return value if value is not None else DEFAULT_LIMIT")
                continue
            if deco < 0.28:
                w.add(1, "@traced")
            w.add(1, f"def {mname}(self{''.join(', ' + p for p in params)}):")
            w.add(2, f'"""{self.sentence()}"""')
            self.body(w, 2, ctx_methods, params + ["self.source"], rng.randint(4, 22))
            methods.append((mname, arity))
            ctx_methods["self_methods"] = inherited + methods
        if rng.random() < 0.3:
            w.add(0)
            w.add(1, "def __repr__(self):")
            w.add(2, f'return f"{name}({{self.source!r}})"')
        cls = Callable(module, name, 1, is_class=True, methods=inherited + methods)
        ctx["local"].append(cls)
        return cls

    def decorators_module(self):
        module = Module((self.root,), "_decorators")
        w = Writer()
        w.add(0, '"""Decorators shared across the package: tracing and plugin registration."""')
        w.add(0)
        w.add(0, "import functools")
        w.add(0)
        w.add(0, "REGISTRY = {}")
        w.add(0, "TRACE_DEPTH = [0]")
        w.add(0)
        w.add(0)
        w.add(0, "def traced(func):")
        w.add(1, '"""Counts nesting depth around calls to func (cheap tracing)."""')
        w.add(0)
        w.add(1, "@functools.wraps(func)")
        w.add(1, "def wrapper(*args, **kwargs):")
        w.add(2, "TRACE_DEPTH[0] += 1")
        w.add(2, "try:")
        w.add(3, "return func(*args, **kwargs)")
        w.add(2, "finally:")
        w.add(3, "TRACE_DEPTH[0] -= 1")
        w.add(0)
        w.add(1, "return wrapper")
        w.add(0)
        w.add(0)
        w.add(0, "def register(obj):")
        w.add(1, '"""Records obj in the plugin registry under its qualified name."""')
        w.add(1, 'REGISTRY[getattr(obj, "__qualname__", repr(obj))] = obj')
        w.add(1, "return obj")
        return module, w.text()

    def module(self, module):
        rng = self.rng
        w = Writer()
        import_lines, usable, aliased = self.plan_imports(module)
        if rng.random() < 0.1:
            w.add(0, "# -*- coding: utf-8 -*-")
        w.add(0, f'"""{module.dotted}: {self.sentence()}')
        w.add(0)
        for _ in range(rng.randint(1, 3)):
            w.add(0, self.sentence())
        w.add(0, '"""')
        w.add(0)
        for line in import_lines:
            w.add(0, line)
        w.add(0)
        w.add(0, f"MAX_DEPTH = {rng.randint(4, 64)}")
        w.add(0, f"DEFAULT_LIMIT = {rng.randint(10, 5000)}")
        w.add(0, f'_SEPARATOR = "{rng.choice([":", "/", "|", "."])}"')
        w.add(0, "_LOCK = __import__(\"threading\").RLock()")
        ctx = {"local": [], "usable": usable, "aliased": aliased, "names": set(),
               "imports": import_lines, "lock": "_LOCK"}
        defined = []
        for _ in range(rng.randint(3, 14)):
            if rng.random() < 0.45:
                defined.append(self.klass(w, ctx, module))
            else:
                defined.append(self.function(w, ctx, module))
        if rng.random() < 0.1:
            w.add(0)
            w.add(0)
            w.add(0, 'if __name__ == "__main__":')
            w.add(1, f"print({defined[-1].name})")
        module.exports = defined
        self.callables.extend(defined)
        self.callables_near.setdefault(module.package[:2], []).extend(defined)
        return w.text()

    def package_init(self, package):
        """__init__.py re-exporting a few names from the package's own modules."""
        w = Writer()
        w.add(0, f'"""{".".join(package)}: {self.sentence()}"""')
        names = []
        modules = self.package_modules[package]
        if modules:
            w.add(0)
            for m in self.rng.sample(modules, min(len(modules), 3)):
                picks = sorted(c.name for c in m.exports[:2])
                if picks:
                    w.add(0, f"from .{m.name} import {', '.join(picks)}")
                    names.extend(picks)
        if names:
            w.add(0)
            w.add(0, "__all__ = [" + ", ".join(f'"{n}"' for n in names) + "]")
        return w.text()

    def generate(self, target_lines, out):
        files = []
        total = 0
        deco, text = self.decorators_module()
        self.modules.append(deco)
        files.append((deco.path, text))
        total += text.count("\n")
        self.current_package = (self.root,)
        self.package_budget = 2
        while total < target_lines:
            previous = self.current_package
            package = self.next_package()
            if package != previous:
                total += self.maybe_tests(previous, files)
            module = Module(package, self.module_name(package))
            self.modules.append(module)
            self.package_modules[package].append(module)
            text = self.module(module)
            files.append((module.path, text))
            total += text.count("\n")
        for package in self.packages:
            text = self.package_init(package)
            files.append((os.path.join(*package, "__init__.py"), text))
            total += text.count("\n")
        for path, text in files:
            full = os.path.join(out, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        return len(files), total


def parse_size(text):
    text = text.lower().replace("_", "")
    scale = {"k": 1000, "m": 1000000}.get(text[-1:], 1)
    return int(float(text.rstrip("km")) * scale)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", required=True, help="approximate total lines, e.g. 100000, 500k, 2M")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="output directory (must not exist or be empty)")
    parser.add_argument("--root", default="synthpkg", help="top-level package name")
    parser.add_argument("--check", action="store_true", help="parse every generated file with ast")
    args = parser.parse_args()
    if os.path.isdir(args.out) and os.listdir(args.out):
        sys.exit(f"gen_synthetic: {args.out} is not empty")
    count, lines = Generator(args.seed, args.root).generate(parse_size(args.lines), args.out)
    if args.check:
        for dirpath, _, names in os.walk(args.out):
            for n in names:
                path = os.path.join(dirpath, n)
                with open(path, encoding="utf-8") as f:
                    ast.parse(f.read(), path)
    print(f"gen_synthetic v{GENERATOR_VERSION}: {count} files, {lines} lines in {args.out}")


if __name__ == "__main__":
    main()
