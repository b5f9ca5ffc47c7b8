#!/usr/bin/env python3
"""The Python resolver's setup in a cold mount: its CPU share, and what else of ours ran then.

    scripts/bench/python_setup.py [--reps N] REPO ANCHORFS [ANCHORFS ...]

REPS times, each ANCHORFS in turn (alternated): a cold mount under `perf record -e cpu-clock
-F 999` (first_parse.py's mount_under_perf), then per mount the setup window of the resolver's
thread (the thread with the most python::detail samples), from its first `index_files` sample to
its first evaluation sample: the window's wall, the resolver's samples in it (1 ms of CPU each),
the other threads' of ours, and where the fact records ran (serialize_facts, ByteWriter,
LmdbFactCache, mdb_*: samples inside the window and after it). On a loaded machine walls are the
load's; the records' place and the resolver's share of the window are what to compare.
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from first_parse import alternate  # noqa: E402

RECORDS = ("serialize_facts", "ByteWriter", "LmdbFactCache", "mdb_")
EVALUATION = ("evaluate_file", "evaluate_statement", "evaluate_marked", "Resolver::eval")


def report(name, rows):
    resolver = collections.Counter(tid for tid, _, sym in rows if "python::detail" in sym)
    if not resolver:
        return f"{name}: no resolver samples"
    rt = resolver.most_common(1)[0][0]
    mine = [(t, sym) for tid, t, sym in rows if tid == rt]
    start = next((t for t, sym in mine if "index_files" in sym), None)
    end = next((t for t, sym in mine if start is not None and t > start
                and any(e in sym for e in EVALUATION)), None)
    if start is None or end is None:
        return f"{name}: no setup window"
    inside = [(tid, sym) for tid, t, sym in rows if start <= t < end]
    records_in = sum(1 for _, sym in inside if any(r in sym for r in RECORDS))
    records_after = sum(1 for _, t, sym in rows if t >= end and any(r in sym for r in RECORDS))
    own = sum(1 for tid, _ in inside if tid == rt)
    return (f"{name}: setup {1e3 * (end - start):.0f} ms, resolver {own} samples, other threads "
            f"{len(inside) - own}; fact records {records_in} in the window, {records_after} after")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("repo")
    parser.add_argument("anchorfs", nargs="+")
    args = parser.parse_args()
    alternate(args.anchorfs, args.repo, args.reps, 120, report, "anchorfs-python-setup-")
    return 0


if __name__ == "__main__":
    sys.exit(main())
