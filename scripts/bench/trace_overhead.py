#!/usr/bin/env python3
"""Tracing overhead: warm `rg` over one tree mounted untraced, traced (every read seen: pages
dropped at open) and traced with --trace-keep-cache, side by side, interleaved, median of N.

Usage: scripts/bench/trace_overhead.py ANCHORFS CORPUS [--reps 5] [--view topo] [--work DIR]
CORPUS: sympy, django, synth-SIZE or a directory (as scripts/bench.sh). Prints a Markdown table
with each configuration's ratio to the untraced mount (budget: <= 1.2x)."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpora import resolve_corpus  # noqa: E402
from workloads import median, rg_pass, warm_source  # noqa: E402

CONFIGS = [("untraced", []), ("traced", ["--trace"]),
           ("traced, keep cache", ["--trace", "--trace-keep-cache"])]


def wait_idle(path):
    """Waits until the trace stops growing: its writer must not compete with the next pass."""
    size, deadline = -1, time.monotonic() + 30
    while time.monotonic() < deadline:
        current = os.path.getsize(path)
        if current == size:
            return
        size = current
        time.sleep(0.3)


def cold_pass(anchorfs, src, mnt, view, cache):
    """The first rg pass over a fresh untraced mount: what every traced pass costs at most."""
    subprocess.run([anchorfs, "mount", src, mnt, "--view", view, "--no-watch", "--cache-dir",
                    cache], check=True, capture_output=True)
    try:
        return rg_pass(mnt)[0]
    finally:
        subprocess.run([anchorfs, "unmount", mnt], capture_output=True)


def trace_counts(path):
    """(events, dropped) once the daemon has closed the trace (its "end" line)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with open(path, "rb") as f:
            f.seek(max(0, os.path.getsize(path) - 4096))
            if b'"type":"end"' in f.read():
                break
        time.sleep(0.1)
    events = dropped = 0
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            if "op" in record:
                events += 1
            elif record.get("type") == "end":
                dropped = record["dropped"]
    return events, dropped


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("anchorfs")
    p.add_argument("corpus")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--view", default="topo")
    p.add_argument("--work", default=None)
    p.add_argument("--corpora-dir", default=os.path.expanduser("~/.cache/anchorfs-bench"))
    args = p.parse_args()
    name, src = resolve_corpus(args.corpus, args.corpora_dir)
    warm_source(src)
    work = tempfile.mkdtemp(prefix="anchorfs-trace-bench-", dir=args.work)
    cache = os.path.join(work, "cache")
    mounts = []
    try:
        for i, (label, flags) in enumerate(CONFIGS):
            mnt = os.path.join(work, f"mnt{i}")
            os.mkdir(mnt)
            trace = os.path.join(work, f"trace{i}.jsonl")
            extra = [f if f != "--trace" else f"--trace={trace}" for f in flags]
            subprocess.run([args.anchorfs, "mount", src, mnt, "--view", args.view, "--no-watch",
                            "--cache-dir", cache, *extra], check=True, capture_output=True)
            mounts.append((label, mnt, trace if flags else None))
        times = {label: [] for label, _, _ in mounts}
        times["untraced, cold (fresh mount)"] = []
        cold_mnt = os.path.join(work, "cold")
        os.mkdir(cold_mnt)
        for label, mnt, trace in mounts:
            rg_pass(mnt)  # cold pass: fill the caches that can be filled
            if trace:
                wait_idle(trace)
        for _ in range(args.reps):
            for label, mnt, trace in mounts:
                times[label].append(rg_pass(mnt)[0])
                if trace:
                    wait_idle(trace)
            times["untraced, cold (fresh mount)"].append(
                cold_pass(args.anchorfs, src, cold_mnt, args.view, cache))
    finally:
        for _, mnt, _ in mounts:
            subprocess.run([args.anchorfs, "unmount", mnt], capture_output=True)
    base = median(times["untraced"])
    print(f"### rg over {name} ({args.view}), median of {args.reps}\n")
    print("| mount | warm rg (s) | ratio to untraced | trace events | dropped | trace bytes |")
    print("| --- | --- | --- | --- | --- | --- |")
    rows = mounts[:1] + [("untraced, cold (fresh mount)", None, None)] + mounts[1:]
    for label, _, trace in rows:
        t = median(times[label])
        events, dropped, size = ("", "", "")
        if trace:
            events, dropped = trace_counts(trace)
            size = os.path.getsize(trace)
        print(f"| {label} | {t:.3f} | {t / base:.2f}x | {events} | {dropped} | {size} |")


if __name__ == "__main__":
    main()
