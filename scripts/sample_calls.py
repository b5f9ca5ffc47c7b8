#!/usr/bin/env python3
"""Draws a reproducible sample of CALLS edges from a repository's graph, for a precision audit.

    scripts/sample_calls.py [--anchorfs BIN] [--graph FILE] [--language NAME] [--count N] [--seed S] ROOT

Prints one block per sampled edge: the caller's id and definition line, the callee's id and line,
and the caller's source lines that mention the callee's simple name (where the call should be), so
a reviewer can mark each edge right or wrong. The same ROOT, language, count and seed give the
same sample. --graph reads the graph `anchorfs graph --format json ROOT` wrote before, so a large
tree (the Linux kernel) is analysed once for several samples.
"""
import argparse
import json
import os
import random
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--anchorfs", default=os.path.join(os.path.dirname(__file__), "..", "build", "cli", "anchorfs"))
    parser.add_argument("--graph", help="the graph of ROOT as `anchorfs graph --format json` wrote it")
    parser.add_argument("--language", help="only edges whose caller is in a file of this front end")
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    if args.graph:
        with open(args.graph, encoding="utf-8") as f:
            graph = json.load(f)
    else:
        graph = json.loads(subprocess.run([args.anchorfs, "graph", "--no-cache", "--format", "json", args.root],
                                          check=True, capture_output=True, text=True).stdout)
    entities = graph["entities"]
    language = {e["index"]: e.get("language") for e in entities if e["kind"] == "file"}
    calls = [e for e in graph["edges"] if e["relation"] == "calls"]
    if args.language:
        calls = [e for e in calls if language.get(entities[e["from"]]["file"]) == args.language]
    calls.sort(key=lambda e: (entities[e["from"]]["id"], entities[e["to"]]["id"]))
    sample = random.Random(args.seed).sample(calls, min(args.count, len(calls)))
    print(f"# {len(sample)} of {len(calls)} CALLS edges, seed {args.seed}")
    for n, edge in enumerate(sample, 1):
        caller, callee = entities[edge["from"]], entities[edge["to"]]
        path = entities[caller["file"]]["id"]
        print(f"\n## {n}. {caller['id']} (line {caller['line']}) -> {callee['id']} (line {callee['line']})")
        simple = callee["name"].split(".")[-1]
        try:
            with open(os.path.join(args.root, path), encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError as error:
            print(f"   (cannot read {path}: {error})")
            continue
        start = caller["line"] - 1 if caller["kind"] != "file" else 0
        shown = 0
        for i in range(start, len(lines)):
            if simple in lines[i]:
                print(f"   {path}:{i + 1}: {lines[i].strip()[:160]}")
                shown += 1
                if shown == 3:
                    break
    return 0


if __name__ == "__main__":
    sys.exit(main())
