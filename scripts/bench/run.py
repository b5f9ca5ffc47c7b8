#!/usr/bin/env python3
"""anchorfs benchmark harness: mounts each corpus through every configuration side by side,
times mount, search and read workloads, prints tables with ratios to the plain directory and
PASS/MISS per target, and writes the results into a Markdown file. Driven by scripts/bench.sh."""

import argparse
import signal
import sys

from corpora import parse_size, resolve_corpus
from filesystems import Anchorfs, Plain, make_config
from measure import measure_corpus, measure_scaling
from report import corpus_notes, corpus_table, machine_info, refresh_table, report, scaling_table, targets, write_markdown
from system import log


ALL_CONFIGS = ["plain", "bindfs", "passthrough_ll", "anchorfs-none", "anchorfs-topo", "anchorfs-auto"]


def main():
    parser = argparse.ArgumentParser(description="anchorfs benchmark (use scripts/bench.sh)")
    parser.add_argument("--work", required=True, help="scratch directory for mount points and caches")
    parser.add_argument("--corpora-dir", required=True, help="where synthetic corpora are generated and kept")
    parser.add_argument("--anchorfs", required=True)
    parser.add_argument("--passthrough-ll", required=True)
    parser.add_argument("--corpus", action="append", default=[])
    parser.add_argument("--configs", default=",".join(ALL_CONFIGS))
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--reads", type=int, default=20000)
    parser.add_argument("--scaling", default="10k,100k,500k,1M,2M", help="comma list of sizes, or 'none'")
    parser.add_argument("--refresh", action="store_true", help="measure live-refresh latency (anchorfs-topo)")
    parser.add_argument("--refresh-timeout", type=float, default=120.0)
    parser.add_argument("--profile", action="store_true", help="perf profile of a cold anchorfs-topo mount")
    parser.add_argument("--output", required=True, help="Markdown file to write ('-' for none)")
    parser.add_argument("--argv", nargs=argparse.REMAINDER, default=[], help="bench.sh arguments, for the record")
    args = parser.parse_args()
    # Started in the background by bench.sh, where SIGINT is ignored: make both signals unwind through
    # the `finally` blocks that unmount.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    tools = {"anchorfs": args.anchorfs, "passthrough_ll": args.passthrough_ll}
    configs = [make_config(n.strip(), tools) for n in args.configs.split(",") if n.strip()]
    unknown = [c for c in args.configs.split(",") if c.strip() and c.strip() not in ALL_CONFIGS]
    if unknown:
        sys.exit(f"bench: unknown configuration(s) {unknown}; known: {ALL_CONFIGS}")
    if configs[0].name != "plain":
        configs.insert(0, Plain(tools))
    machine = machine_info(tools)

    results, failed = [], False
    for spec in args.corpus or ["sympy", "django"]:
        corpus, src = resolve_corpus(spec, args.corpora_dir)
        info, rows, bad = measure_corpus(corpus, src, configs, args.work, args)
        results.append((info, rows))
        failed |= bad
        print(f"\n### {corpus}\n\n{corpus_table(info, rows)}\n\n{corpus_notes(rows, args.reps)}\n", flush=True)

    points = []
    if args.scaling != "none" and any(isinstance(c, Anchorfs) for c in configs):
        sizes = [parse_size(s) for s in args.scaling.split(",") if s]
        points, bad = measure_scaling(sizes, tools, args.work, args)
        failed |= bad
        print(f"\n### scaling\n\n{scaling_table(points)}\n", flush=True)

    if args.refresh:
        print(f"\n### refresh\n\n{refresh_table(results, args.refresh_timeout)}\n", flush=True)
    print(f"\n### targets\n\n{targets(results, points)}\n", flush=True)
    if args.output != "-":
        write_markdown(args.output, report(args, tools, machine, results, points))
        log(f"wrote {args.output}")
    if failed:
        log("some measurements failed: the table is incomplete")
        sys.exit(1)


if __name__ == "__main__":
    main()
