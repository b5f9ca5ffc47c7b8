#!/usr/bin/env python3
"""Lean keeps paper's words at 0.6 of its bytes, and a tag budget is a promise, on a real corpus.

    corpus_value_test.py ANCHORFS REPO

`anchorfs stats --tag-budget 10` on REPO (Debian's django or sympy): in every view (topo, inv,
dense, auto) lean's tag bytes are at most 0.6 x paper's and its blocks keep at least 98 % of the
identifier words of paper's blocks (mean word coverage per block); every row with the budget, in
every view and style, serves at most 10 % of the source bytes. Then two exports with the budget
(topo paper, whose block headers alone exceed it, and dense lean) are measured on the bytes an
agent reads: the tagged files' sizes minus the originals' stay within the budget, and the summary
says which blocks were left out.
"""
import json
import os
import subprocess
import sys
import tempfile

BUDGET = 10.0
MAX_LEAN_RATIO = 0.6
MIN_COVERAGE = 0.98


def run(*command):
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return done.stdout + done.stderr


def added_bytes(repo, out):
    """Bytes the export added: its files' sizes minus the originals'."""
    added = 0
    for directory, _, names in os.walk(out):
        for name in names:
            tagged = os.path.join(directory, name)
            original = os.path.join(repo, os.path.relpath(tagged, out))
            if not os.path.islink(tagged):
                added += os.path.getsize(tagged) - os.path.getsize(original)
    return added


def main():
    anchorfs, repo = sys.argv[1], sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory(prefix="anchorfs-corpus-value-") as scratch:
        cache = os.path.join(scratch, "cache")
        stats = json.loads(subprocess.run(
            [anchorfs, "stats", repo, "--json", "--tag-budget", str(BUDGET), "--cache-dir", cache],
            check=True, capture_output=True, text=True).stdout)
        source = stats["files"]["source_bytes"]
        views = stats["views"]
        for v in views:
            row = f"{v['requested']} {v['style']} budget {v['tag_budget']}"
            print(f"{row}: {v['share']:.4f} of the source, vs paper {v['vs_paper']}, "
                  f"coverage {v['word_coverage'] and v['word_coverage']['mean']}")
            if v["tag_budget"] is not None and v["share"] > BUDGET / 100:
                failures.append(f"{row}: serves {100 * v['share']:.2f}% > {BUDGET:g}%")
            if v["style"] != "lean" or v["tag_budget"] is not None:
                continue
            if v["vs_paper"] is None or v["vs_paper"] > MAX_LEAN_RATIO:
                failures.append(f"{row}: lean is {v['vs_paper']} of paper's bytes")
            coverage = v["word_coverage"]
            if coverage is None or coverage["blocks"] < 1000 or coverage["mean"] < MIN_COVERAGE:
                failures.append(f"{row}: word coverage {coverage}")
        budget_rows = [v for v in views if v["tag_budget"] is not None]
        if len(budget_rows) != 8 or len({(v["requested"], v["style"]) for v in budget_rows}) != 8:
            failures.append(f"expected 4 views x 2 styles with the budget, got {len(budget_rows)}")
        for view, style in (("topo", "paper"), ("dense", "lean")):
            out = os.path.join(scratch, f"{view}-{style}")
            summary = run(anchorfs, "export", repo, out, "--view", view, "--style", style,
                          "--tag-budget", str(BUDGET), "--cache-dir", cache)
            share = 100.0 * added_bytes(repo, out) / source
            print(f"export {view} {style}, budget {BUDGET:g}%: {share:.2f}% of the source bytes")
            if share == 0 or share > BUDGET:
                failures.append(f"export {view} {style}: {share:.2f}% of the source bytes")
            if f"tag budget {BUDGET:g}% met: max " not in summary:
                failures.append(f"export {view} {style}: the summary does not say how the budget "
                                f"was met: {summary}")
            if (view, style) == ("topo", "paper") and "lowest-ranked blocks left out" not in summary:
                failures.append(f"export topo paper: headers alone exceed {BUDGET:g}%, yet the "
                                f"summary names no blocks left out: {summary}")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
