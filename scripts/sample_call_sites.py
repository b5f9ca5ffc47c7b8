#!/usr/bin/env python3
"""Draws a reproducible sample of call sites from a repository's source, for a recall audit.

    scripts/sample_call_sites.py [--anchorfs BIN ... | --graph FILE ...] [--language NAME]
                                 [--count N] [--seed S] [--under DIR] ROOT

A call site is `name(` (or `name!(` in Rust) on a source line that is not a comment, where `name`
is the simple name of a function the repository defines (so calls of builtins and of other
packages' functions are not drawn). For each sampled site it prints the line, the definition it
sits in (the nearest function above it), and, for each --anchorfs binary given (say the one before
a change and the one after), whether that binary's graph has a CALLS edge from that definition or
one of its parents to a function of that simple name (HIT) or not (miss), with the callee's id.
A reviewer then marks each miss "evident" (a careful reader finds the callee in the repository)
or not: recall = hits / (hits + evident misses). The same ROOT, language, count and seed give the
same sample whatever the binaries. --graph reads a graph `anchorfs graph --format json ROOT` wrote
before instead of running a binary (repeat it to compare), so a large tree (the Linux kernel) is
analysed once for several samples.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys

KEYWORDS = {
    "if", "for", "while", "switch", "return", "func", "fn", "function", "catch", "match", "new",
    "sizeof", "typeof", "super", "this", "assert", "synchronized", "try", "else", "case", "in",
    "await", "yield", "throw", "delete", "void", "defer", "go", "select", "loop", "where", "impl",
    "let", "mut", "pub", "use", "mod", "struct", "enum", "trait", "type", "interface", "class",
}
CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*(!?)\s*\(")


def graph_of(binary, root):
    out = subprocess.run([binary, "graph", "--no-cache", "--format", "json", root],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def simple(name):
    return name.split(".")[-1]


def call_sites(graph, root, language, under):
    entities = graph["entities"]
    files = {e["index"]: e["id"] for e in entities
             if e["kind"] == "file" and (not language or e.get("language") == language)
             and (not under or e["id"].startswith(under))}
    defined = {simple(e["name"]) for e in entities if e["kind"] == "function"}
    sites = []
    for index, path in sorted(files.items(), key=lambda item: item[1]):
        try:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if stripped.startswith(("//", "/*", "*", "#")):
                continue
            for match in CALL.finditer(line):
                name = match.group(1) + match.group(2)
                before = line[:match.start()].rstrip()
                if match.group(1) in KEYWORDS or before.endswith(("func", "fn", "function", "def")):
                    continue
                if name in defined:
                    sites.append((path, number, name, stripped))
    return sites


def by_file(graph):
    """Each file's id -> its entities, computed once per graph."""
    if "_by_file" not in graph:
        entities = graph["entities"]
        index = {}
        for e in entities:
            index.setdefault(entities[e["file"]]["id"], []).append(e)
        graph["_by_file"] = index
    return graph["_by_file"]


def calls_from(graph):
    """Each caller's index -> the callees of its CALLS edges, computed once per graph."""
    if "_calls_from" not in graph:
        index = {}
        for e in graph["edges"]:
            if e["relation"] == "calls":
                index.setdefault(e["from"], []).append(e["to"])
        graph["_calls_from"] = index
    return graph["_calls_from"]


def enclosing(graph, path, line):
    """The nearest function defined above `line` in `path`, else the file."""
    best = None
    for e in by_file(graph).get(path, []):
        if e["kind"] == "file" and best is None:
            best = e
        elif e["kind"] == "function" and e["line"] <= line and (
                best is None or best["kind"] == "file" or e["line"] >= best["line"]):
            best = e
    return best


def callees(graph, caller, name):
    entities = graph["entities"]
    chain = set()
    at = caller
    while at is not None:
        chain.add(at["index"])
        at = entities[at["parent"]] if at.get("parent") is not None else None
    edges = calls_from(graph)
    return sorted({entities[to]["id"] for at in chain for to in edges.get(at, [])
                   if simple(entities[to]["name"]) == name})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--anchorfs", action="append",
                        help="a binary to score (repeat to compare); default build/cli/anchorfs")
    parser.add_argument("--graph", action="append",
                        help="a graph of ROOT `anchorfs graph --format json` wrote (repeat to compare)")
    parser.add_argument("--language", help="only files of this front end")
    parser.add_argument("--under", help="only files below this repository-relative directory")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.graph:
        binaries = args.graph
        graphs = []
        for name in args.graph:
            with open(name, encoding="utf-8") as f:
                graphs.append(json.load(f))
    else:
        binaries = args.anchorfs or [os.path.join(os.path.dirname(__file__), "..", "build", "cli", "anchorfs")]
        graphs = [graph_of(binary, args.root) for binary in binaries]
    # The sample is drawn from the first binary's definitions: the same for every comparison.
    sites = call_sites(graphs[0], args.root, args.language, args.under)
    sample = sorted(random.Random(args.seed).sample(sites, min(args.count, len(sites))))
    hits = [0] * len(graphs)
    print(f"# {len(sample)} of {len(sites)} call sites, seed {args.seed}")
    for n, (path, line, name, text) in enumerate(sample, 1):
        print(f"\n## {n}. {path}:{line} {name}")
        print(f"   {text[:160]}")
        for g, (binary, graph) in enumerate(zip(binaries, graphs)):
            caller = enclosing(graph, path, line)
            found = callees(graph, caller, name) if caller else []
            hits[g] += bool(found)
            verdict = "HIT " + ", ".join(found) if found else "miss"
            print(f"   [{os.path.basename(binary)}] in {caller['id'] if caller else '?'}: {verdict}")
    for binary, count in zip(binaries, hits):
        print(f"\n# {binary}: {count} of {len(sample)} sites linked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
