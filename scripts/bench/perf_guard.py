#!/usr/bin/env python3
"""CI performance guard: instruction-count ratios on a generated mid-size corpus, against stored ones.

Wall-clock and CPU seconds move by tens of percent on a shared machine; instruction counts
(valgrind's cachegrind, no cache simulation, one analysis thread) move by well under 1 %. Each
measure is a ratio to the tree-sitter parse floor of the same corpus, so a change of the parser
runtime moves every ratio the same way, and the guard compares those ratios with the ones stored
in scripts/bench/perf_baseline.json (the previous release's, refreshed with --update-baseline):

    scripts/bench/perf_guard.py measure --anchorfs build/cli/anchorfs \\
        --floor build/analysis/anchorfs_parse_floor --work /tmp/guard --out /tmp/guard/m.json
    scripts/bench/perf_guard.py compare /tmp/guard/m.json scripts/bench/perf_baseline.json

compare exits 1 when a ratio exceeds its stored value by more than the tolerance (25 %).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

GUARD_VERSION = 1
DEFAULT_LINES = 20000
DEFAULT_SEED = 1
TOLERANCE = 0.25

# What each measure runs (besides the floor): export arguments, and what happens before it.
MEASURES = {
    "cold_topo": "export --no-cache --view topo: scan, parse, extract, resolve, render, write",
    "cold_dense": "export --no-cache --view dense (the dense facts and their resolution too)",
    "warm": "export --view topo with the cache of a previous export of the same tree",
    "refresh": "export --view topo after appending a function to one file (facts of the others cached)",
}


def instructions(command, work, name):
    """Instructions (user space, all threads) of one run of `command` under cachegrind."""
    out = os.path.join(work, f"cachegrind.{name}")
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                          f"--cachegrind-out-file={out}", "--quiet", *command],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if run.returncode != 0:
        raise SystemExit(f"perf_guard: {' '.join(command)} failed ({run.returncode}): "
                         f"{run.stderr.strip()[-400:]}")
    with open(out, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("summary:"):
                return int(line.split()[1])
    raise SystemExit(f"perf_guard: no summary in {out}")


def plain_run(command):
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)


def append_function(path):
    """Appends a top-level function calling the file's first top-level function (a one-file edit)."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    match = re.search(r"^def ([A-Za-z_][A-Za-z0-9_]*)\(", text, re.MULTILINE)
    callee = match.group(1) if match else "print"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(f"\n\ndef perf_guard_added(*args):\n    return {callee}(*args)\n")


def generate(repo_root, work, lines, seed):
    corpus = os.path.join(work, f"synth-{lines}-{seed}")
    shutil.rmtree(corpus, ignore_errors=True)
    plain_run([sys.executable, os.path.join(repo_root, "scripts", "gen_synthetic.py"),
               "--lines", str(lines), "--seed", str(seed), "--out", corpus])
    return corpus


def largest_module(corpus):
    """The largest non-__init__ module with a top-level function: the file the refresh edits."""
    best = None
    for directory, _, files in os.walk(corpus):
        for name in files:
            if not name.endswith(".py") or name == "__init__.py":
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            if re.search(r"^def ", text, re.MULTILINE) and (best is None or len(text) > best[0]
                                                             or (len(text) == best[0]
                                                                 and path < best[1])):
                best = (len(text), path)
    if best is None:
        raise SystemExit(f"perf_guard: no module with a top-level function in {corpus}")
    return best[1]


def measure(args):
    repo_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    corpus = args.corpus or generate(repo_root, work, args.lines, args.seed)
    anchorfs = os.path.abspath(args.anchorfs)
    out_dir = os.path.join(work, "export")
    cache = os.path.join(work, "cache")

    def export(view, extra):
        return [anchorfs, "export", "--force", "--threads", "1", "--view", view, *extra, corpus,
                out_dir]

    counts = {"floor": instructions([os.path.abspath(args.floor), corpus], work, "floor")}
    counts["cold_topo"] = instructions(export("topo", ["--no-cache"]), work, "cold_topo")
    counts["cold_dense"] = instructions(export("dense", ["--no-cache"]), work, "cold_dense")
    shutil.rmtree(cache, ignore_errors=True)
    plain_run(export("topo", ["--cache-dir", cache]))
    counts["warm"] = instructions(export("topo", ["--cache-dir", cache]), work, "warm")
    if not args.corpus:  # never edit a corpus the caller owns
        append_function(largest_module(corpus))
        counts["refresh"] = instructions(export("topo", ["--cache-dir", cache]), work, "refresh")
    floor = counts["floor"]
    result = {
        "guard_version": GUARD_VERSION,
        "corpus": args.corpus or f"gen_synthetic.py --lines {args.lines} --seed {args.seed}",
        "instructions": counts,
        "ratios": {name: round(count / floor, 4) for name, count in counts.items()
                   if name != "floor"},
    }
    text = json.dumps(result, indent=2, sort_keys=True) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
    sys.stdout.write(text)
    return 0


def compare(args):
    with open(args.measured, encoding="utf-8") as handle:
        measured = json.load(handle)
    with open(args.baseline, encoding="utf-8") as handle:
        baseline = json.load(handle)
    if measured.get("guard_version") != baseline.get("guard_version") or \
            measured.get("corpus") != baseline.get("corpus"):
        print("perf_guard: the baseline was measured by another guard version or on another "
              "corpus; re-measure it (--update-baseline)")
        return 1
    failed = []
    print(f"Instruction-count ratios to the parse floor ({measured['corpus']}; "
          f"floor {measured['instructions']['floor']:,} instructions), tolerance "
          f"+{args.tolerance:.0%}:\n")
    print("| measure | now | stored | now / stored | result |")
    print("| --- | ---: | ---: | ---: | --- |")
    for name in sorted(baseline["ratios"]):
        stored = baseline["ratios"][name]
        now = measured["ratios"].get(name)
        if now is None:
            failed.append(name)
            print(f"| {name} | missing | {stored:.4f} | - | FAIL |")
            continue
        change = now / stored
        verdict = "FAIL" if change > 1 + args.tolerance else "ok"
        if verdict == "FAIL":
            failed.append(name)
        print(f"| {name} | {now:.4f} | {stored:.4f} | {change:.3f} | {verdict} |")
    if failed:
        print(f"\nperf_guard: regressed by more than {args.tolerance:.0%}: {', '.join(failed)}")
        return 1
    print("\nperf_guard: no ratio regressed")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("measure", help="count instructions, print (and write) the ratios as JSON")
    m.add_argument("--anchorfs", required=True)
    m.add_argument("--floor", required=True, help="the anchorfs_parse_floor tool")
    m.add_argument("--work", required=True, help="scratch directory (corpus, cache, exports)")
    m.add_argument("--corpus", help="measure this tree instead of the generated one (no refresh)")
    m.add_argument("--lines", type=int, default=DEFAULT_LINES)
    m.add_argument("--seed", type=int, default=DEFAULT_SEED)
    m.add_argument("--out", help="also write the JSON here")
    c = sub.add_parser("compare", help="fail when a ratio regressed beyond the tolerance")
    c.add_argument("measured")
    c.add_argument("baseline")
    c.add_argument("--tolerance", type=float, default=TOLERANCE)
    args = parser.parse_args()
    return measure(args) if args.command == "measure" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
