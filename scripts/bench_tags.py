#!/usr/bin/env python3
"""Tag cost per view x style x budget, in bytes and tokens, on real repositories (issue 14's table).

    scripts/bench_tags.py [--anchorfs BIN] [--budgets 20,10] [--check] [REPO ...]

Runs `anchorfs stats --json` once per budget (the rows without a budget come from the first run)
and prints one markdown table per repository. Default repositories: Debian's django and sympy
sources (python3-django, python3-sympy). --check exits non-zero when a budgeted row exceeds its
budget (a budget is always met: blocks are left out when caps cannot reach it), or when lean
exceeds 0.6 x paper's tag bytes or keeps less than 98 % of paper's words (docs/tag-format.md).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_REPOS = ["/usr/lib/python3/dist-packages/django", "/usr/lib/python3/dist-packages/sympy"]


def stats(binary, repo, cache, budget):
    command = [binary, "stats", repo, "--json", "--cache-dir", cache]
    if budget is not None:
        command += ["--tag-budget", str(budget)]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def caps(view):
    text = "no cap" if view["max_links"] == 0 else f"max {view['max_links']}"
    if view["hub_threshold"] is not None:
        text += f", hub > {view['hub_threshold']}"
    return text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--anchorfs", default=os.path.join(HERE, "build", "cli", "anchorfs"))
    parser.add_argument("--budgets", default="20,10")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("repos", nargs="*", default=DEFAULT_REPOS)
    args = parser.parse_args()
    budgets = [float(b) for b in args.budgets.split(",") if b]
    failures = []
    with tempfile.TemporaryDirectory(prefix="anchorfs-bench-tags-") as cache:
        for repo in args.repos:
            rows = []
            first = None
            for budget in budgets or [None]:
                doc = stats(args.anchorfs, repo, cache, budget)
                first = first or doc
                for view in doc["views"]:
                    if view["tag_budget"] is None and budget != (budgets or [None])[0]:
                        continue  # the unbudgeted rows once
                    rows.append(view)
            name = os.path.basename(repo.rstrip("/"))
            print(f"\n### {name}: {first['files']['source_bytes']:,} source bytes, "
                  f"{first['tokens']['source_tokens']:,} tokens ({first['tokens']['counter']})\n")
            print(f"auto: {first['auto']['reason']}\n")
            print("| view | style | budget | as | caps | tag bytes | share | tokens | share "
                  "| per file med / p90 / max | hubs kept ranked / v1 |")
            print("| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
            order = {"topo": 0, "inv": 1, "dense": 2, "auto": 3}
            rows.sort(key=lambda v: (order[v["requested"]], v["style"] != "paper",
                                     -(v["tag_budget"] or 1e9)))
            paper = {}
            for v in rows:
                budget = "-" if v["tag_budget"] is None else f"{v['tag_budget']:g}%"
                spread = v["tokens_per_file"]
                print(f"| {v['requested']} | {v['style']} | {budget} | {v['view']} | {caps(v)} "
                      f"| {v['tag_bytes']:,} | {100 * v['share']:.1f}% | {v['tag_tokens']:,} "
                      f"| {100 * v['token_share']:.1f}% "
                      f"| {spread['median']} / {spread['p90']} / {spread['max']} "
                      f"| {v['links']['hubs_shown']:,} / {v['links']['hubs_shown_v1_order']:,} |")
                key = (v["requested"], v["tag_budget"])
                if v["style"] == "paper":
                    paper[key] = v["tag_bytes"]
                elif v["tag_budget"] is None and (
                        10 * v["tag_bytes"] > 6 * paper.get(key, 0)
                        or v["word_coverage"]["mean"] < 0.98):
                    failures.append(f"{name} {v['requested']}: lean {v['tag_bytes']} vs paper "
                                    f"{paper.get(key)}, word coverage {v['word_coverage']}")
                if v["tag_budget"] is not None and 100 * v["share"] > v["tag_budget"]:
                    failures.append(f"{name} {v['requested']} {v['style']}: {100 * v['share']:.1f}% "
                                    f"over the {v['tag_budget']}% budget")
    for failure in failures:
        print("FAIL:", failure, file=sys.stderr)
    return 1 if args.check and failures else 0


if __name__ == "__main__":
    sys.exit(main())
