#!/usr/bin/env python3
"""The start of a cold mount: when its first tree-sitter sample comes, and the CPU before it.

    scripts/bench/first_parse.py [--reps N] [--seconds S] REPO ANCHORFS [ANCHORFS ...]

REPS times, each ANCHORFS in turn (alternated, so the machine's load falls on all alike): a cold
mount (`mount -f --threads 2 --view auto`, a fresh cache directory) under
`perf record -e cpu-clock -F 999`, unmounted once it serves, or stopped after S seconds (a whole
kernel's mount need not finish: only its start is measured). Prints, per mount, the offset of the
first sample in a tree-sitter function (ts_*) from the process's first sample, the samples before
it (ms of CPU at 999 Hz) in all and per thread, and the busiest thread's top leaf symbols. Walls on
a loaded machine are the load's: compare the samples, and the offsets only over several runs.
Needs perf and root (or perf_event_paranoid <= 1).
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def mount_under_perf(anchorfs, repo, seconds, data):
    cache = tempfile.mkdtemp(prefix="anchorfs-first-parse-cache-")
    mnt = tempfile.mkdtemp(prefix="anchorfs-first-parse-mnt-")
    try:
        perf = subprocess.Popen(
            ["perf", "record", "-q", "-e", "cpu-clock", "-F", "999", "-o", data, "--",
             "timeout", "-s", "INT", str(seconds), anchorfs, "mount", "-f", "--threads", "2",
             "--cache-dir", cache, "--view", "auto", repo, mnt],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while perf.poll() is None:
            if os.path.ismount(mnt):
                subprocess.run(["fusermount3", "-u", mnt], check=False)
                break
            time.sleep(0.02)
        perf.wait()
    finally:
        if os.path.ismount(mnt):
            subprocess.run(["fusermount3", "-u", mnt], check=False)
        shutil.rmtree(cache, ignore_errors=True)
        os.rmdir(mnt)


def samples_of(data):
    out = subprocess.run(["perf", "script", "-i", data, "-F", "tid,time,ip,sym"],
                         capture_output=True, text=True, check=False).stdout
    rows = []
    for line in out.splitlines():
        m = re.match(r"\s*(\d+)\s+([\d.]+):\s*\S+\s*(.*)", line)
        if m:
            rows.append((int(m[1]), float(m[2]), m[3].strip()))
    return rows


def report(name, rows):
    if not rows:
        return f"{name}: no samples"
    start = rows[0][1]
    first = next((t for _, t, sym in rows if sym.startswith("ts_")), None)
    if first is None:
        return f"{name}: no tree-sitter sample ({len(rows)} samples)"
    before = [(tid, sym) for tid, t, sym in rows if t < first]
    threads = collections.Counter(tid for tid, _ in before)
    busiest = threads.most_common(1)[0][0] if threads else None
    top = collections.Counter(sym or "?" for tid, sym in before if tid == busiest)
    return (f"{name}: first parse sample +{first - start:.3f} s; {len(before)} samples before it "
            f"(by thread {', '.join(str(n) for _, n in threads.most_common())}); busiest: "
            + ", ".join(f"{sym[:40]} {n}" for sym, n in top.most_common(6)))


def alternate(builds, repo, reps, seconds, report, prefix):
    """REPS rounds of one cold mount under perf per build, the order reversed every other round;
    prints report(build, samples) for each."""
    work = tempfile.mkdtemp(prefix=prefix)
    try:
        for rep in range(reps):
            order = builds if rep % 2 == 0 else list(reversed(builds))
            for anchorfs in order:
                data = os.path.join(work, "perf.data")
                mount_under_perf(anchorfs, repo, seconds, data)
                print(report(anchorfs, samples_of(data)), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=60,
                        help="stop a mount that has not served after this long")
    parser.add_argument("repo")
    parser.add_argument("anchorfs", nargs="+")
    args = parser.parse_args()
    alternate(args.anchorfs, args.repo, args.reps, args.seconds, report, "anchorfs-first-parse-")
    return 0


if __name__ == "__main__":
    sys.exit(main())
