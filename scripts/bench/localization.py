#!/usr/bin/env python3
"""Localization benchmark: BM25 ranking of function chunks, plain tree vs tagged exports.

    localization.py --anchorfs BIN --bench DIR --work DIR [--format NAME=ARGS ...] [--tasks N]

Each task of value-bench (DIR/tasks.jsonl: a fix commit's message as the query, the functions it
changed as the answer) is checked out at its base commit from DIR/repos/<project>.bundle, exported
by `anchorfs export` once per format, and every Python function of the tree (methods and nested
functions included) becomes one chunk: the comment lines right above it (a tag block, or the
code's own comments), its decorators and its body. Chunks are ranked by BM25 (k1 1.2, b 0.75) of
the query's words; words split on non-alphanumerics, `_` and camelCase, lower-cased, with a short
English stop list. Func@k: share of tasks with a gold function (`gold_kinds` == function) among
the first k; MRR: mean of 1 / rank of the first gold function (0 when none is ranked). Reported
on all tasks and on those whose message does not name a gold function, with a paired bootstrap
interval of each format's difference to `plain` and per-task wins/losses. Not a test gate: a
table for choosing between formats. Formats default to plain, paper and lean under topo.
"""
import argparse
import ast
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from math import log

DEFAULT_FORMATS = [
    "plain=",
    "paper=--view topo --style paper",
    "lean=--view topo --style lean",
]
STOP = set("""a an and are as at be been but by can could do does for from had has have if in
into is it its it's not of on or so than that the their then there these this those to was were
when which while will with would we you i now also no use used using""".split())
WORD = re.compile(r"[A-Za-z0-9]+")
CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(text):
    out = []
    for token in WORD.findall(text):
        for part in CAMEL.findall(token):
            part = part.lower()
            if part not in STOP:
                out.append(part)
    return out


def run(*command, cwd=None):
    subprocess.run(command, check=True, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def checkout(bench, work, task):
    """A plain tree of the task's base commit (no .git), made once."""
    project = task["id"].split("-")[0]
    bare = os.path.join(work, "git", project + ".git")
    if not os.path.isdir(bare):
        run("git", "clone", "-q", "--bare", os.path.join(bench, "repos", project + ".bundle"), bare)
    tree = os.path.join(work, "trees", task["id"], "plain")
    if not os.path.isdir(tree):
        os.makedirs(tree + ".tmp", exist_ok=True)
        archive = subprocess.run(["git", "--git-dir", bare, "archive", task["base_commit"]],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tree + ".tmp"], input=archive, check=True)
        os.rename(tree + ".tmp", tree)
    return tree


def export(anchorfs, work, task, name, args, plain):
    out = os.path.join(work, "trees", task["id"], name)
    if not os.path.isdir(out):
        cache = os.path.join(work, "cache", name)
        run(anchorfs, "export", plain, out + ".tmp", *args.split(), "--cache-dir", cache)
        os.rename(out + ".tmp", out)
    return out


def chunks(tree):
    """(id, text) per function: path:Qual.name, as value-bench names gold functions."""
    result = []
    for directory, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(directory, name)
            try:
                source = open(path, encoding="utf-8", errors="replace").read()
                module = ast.parse(source)
            except (SyntaxError, ValueError):
                continue
            lines = source.splitlines()
            relative = os.path.relpath(path, tree)

            def visit(node, prefix):
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        qual = prefix + child.name
                        if not isinstance(child, ast.ClassDef):
                            first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                            start = first - 1
                            while start > 0 and lines[start - 1].lstrip().startswith("#"):
                                start -= 1
                            text = "\n".join(lines[start:child.end_lineno])
                            result.append((f"{relative}:{qual}", text))
                        visit(child, qual + ".")
                    else:
                        visit(child, prefix)

            visit(module, "")
    return result


def bm25_ranking(query, documents, k1=1.2, b=0.75):
    terms = [Counter(words(text)) for _, text in documents]
    lengths = [sum(t.values()) for t in terms]
    average = sum(lengths) / max(1, len(lengths))
    df = Counter()
    for t in terms:
        df.update(t.keys())
    n = len(documents)
    query_words = set(words(query))
    scores = []
    for i, t in enumerate(terms):
        score = 0.0
        for w in query_words:
            f = t.get(w)
            if not f:
                continue
            idf = log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
            score += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * lengths[i] / average))
        scores.append((-score, documents[i][0]))
    scores.sort()
    ranking, seen = [], set()
    for _, ident in scores:
        if ident not in seen:  # an id defined twice (both branches of an `if`) ranks once
            seen.add(ident)
            ranking.append(ident)
    return ranking


def first_gold_rank(ranking, gold):
    for rank, ident in enumerate(ranking, 1):
        if ident in gold:
            return rank
    return None


def summary(ranks, k):
    hits = sum(1 for r in ranks if r is not None and r <= k)
    mrr = sum(1.0 / r for r in ranks if r is not None) / len(ranks)
    return hits / len(ranks), mrr


def bootstrap(a, b, samples=2000, seed=25):
    """95% interval of mean(b - a) over paired per-task values."""
    rng = random.Random(seed)
    diffs = [y - x for x, y in zip(a, b)]
    means = sorted(sum(rng.choice(diffs) for _ in diffs) / len(diffs) for _ in range(samples))
    return means[int(0.025 * samples)], means[int(0.975 * samples) - 1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--anchorfs", required=True)
    parser.add_argument("--bench", required=True, help="the value-bench directory")
    parser.add_argument("--work", required=True, help="scratch: bare clones, trees, exports")
    parser.add_argument("--format", action="append", help="NAME=EXPORT ARGS (empty: plain)")
    parser.add_argument("--tasks", default="tasks.jsonl")
    parser.add_argument("--limit", type=int, default=0, help="first N tasks only")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--json", help="write per-task ranks here")
    args = parser.parse_args()
    formats = [f.split("=", 1) for f in (args.format or DEFAULT_FORMATS)]
    tasks = [json.loads(line) for line in open(os.path.join(args.bench, args.tasks))]
    if args.limit:
        tasks = tasks[:args.limit]
    ranks = {name: [] for name, _ in formats}
    bytes_ = {name: 0 for name, _ in formats}
    for i, task in enumerate(tasks):
        gold = {g for g, kind in zip(task["gold_functions"], task["gold_kinds"])
                if kind == "function"}
        plain = checkout(args.bench, args.work, task)
        for name, export_args in formats:
            tree = plain if not export_args else export(args.anchorfs, args.work, task, name,
                                                        export_args, plain)
            documents = chunks(tree)
            bytes_[name] += sum(len(text) for _, text in documents)
            ranks[name].append(first_gold_rank(bm25_ranking(task["query"], documents), gold))
        print(f"{i + 1}/{len(tasks)} {task['id']}: " +
              " ".join(f"{name} {ranks[name][-1]}" for name, _ in formats), file=sys.stderr)
    hard = [i for i, t in enumerate(tasks) if not t["mentions_gold_name"]]
    base = formats[0][0]
    print(f"| format | chunk bytes vs {base} | Func@{args.k} | MRR | Func@{args.k} (hard) | "
          f"MRR (hard) | ΔMRR vs {base} (95% CI) | wins / losses vs {base} |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, _ in formats:
        at_k, mrr = summary(ranks[name], args.k)
        hard_at_k, hard_mrr = summary([ranks[name][i] for i in hard], args.k)
        rr = [1.0 / r if r else 0.0 for r in ranks[name]]
        rr_base = [1.0 / r if r else 0.0 for r in ranks[base]]
        low, high = bootstrap(rr_base, rr)
        wins = sum(1 for x, y in zip(rr_base, rr) if y > x)
        losses = sum(1 for x, y in zip(rr_base, rr) if y < x)
        print(f"| {name} | {bytes_[name] / bytes_[base]:.2f} | {100 * at_k:.1f} % | {mrr:.3f} | "
              f"{100 * hard_at_k:.1f} % | {hard_mrr:.3f} | {mrr - summary(ranks[base], args.k)[1]:+.3f} "
              f"({low:+.3f}, {high:+.3f}) | {wins} / {losses} |")
    print(f"\n{len(tasks)} tasks ({len(hard)} whose message names no gold function)")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"tasks": [t["id"] for t in tasks], "ranks": ranks}, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
