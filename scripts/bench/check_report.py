#!/usr/bin/env python3
"""Checks that a benchmark report is complete: every configuration measured on every corpus, every
scaling size measured, a target table present. Exits non-zero with the reason otherwise (used by the
ctest smoke test; it checks shape, never timings)."""

import argparse
import re
import sys


def tables_after(text, heading_prefix):
    """Rows (lists of cells) of the first table after the heading starting with heading_prefix."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(heading_prefix):
            rows = []
            for row in lines[i + 1:]:
                if row.startswith("#"):
                    break
                if row.startswith("|") and not row.startswith("| ---") and not row.startswith("|---"):
                    rows.append([c.strip() for c in row.strip().strip("|").split("|")])
                elif rows and not row.startswith("|"):
                    break
            return rows
    return None


NUMBER = re.compile(r"^\d+(\.\d+)?( \(\d+(\.\d+)?×\))?$")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    parser.add_argument("--corpus", action="append", required=True)
    parser.add_argument("--configs", required=True)
    parser.add_argument("--scaling", default="none")
    args = parser.parse_args()
    text = open(args.report, encoding="utf-8").read()
    problems = []
    configs = [c for c in args.configs.split(",") if c]
    for corpus in args.corpus:
        rows = tables_after(text, f"### {corpus}:")
        if not rows:
            problems.append(f"no table for corpus {corpus}")
            continue
        header, body = rows[0], {r[0]: r for r in rows[1:]}
        for config in configs:
            row = body.get(config)
            if row is None:
                problems.append(f"{corpus}: no row for {config}")
                continue
            cells = dict(zip(header, row))
            wanted = ["rg cold", "rg warm", "grep -r cold", "grep -r warm", "cat all", "random reads", "tags %"]
            if config != "plain":
                wanted += ["mount s", "peak RSS MB", "RSS after MB"]
            if config.startswith("anchorfs-"):
                wanted += ["warm mount s"]
            for column in wanted:
                if not NUMBER.match(cells.get(column, "")):
                    problems.append(f"{corpus}/{config}: column '{column}' is {cells.get(column)!r}")
            if "≠" in cells.get("files", ""):
                problems.append(f"{corpus}/{config}: mount shows a different number of files than the source")
    if args.scaling != "none":
        rows = tables_after(text, "### Scaling")
        sizes = [s for s in args.scaling.split(",") if s]
        measured = {r[0]: r for r in (rows or [])[1:]}
        for size in sizes:
            row = measured.get(size)
            if row is None or not NUMBER.match(row[3]) or not NUMBER.match(row[5]):
                problems.append(f"scaling: size {size} not measured ({row})")
    targets = tables_after(text, "### Targets")
    if not targets or len(targets) < 2:
        problems.append("no target table")
    elif any(r[-1] not in ("PASS", "MISS", "n/a") for r in targets[1:]):
        problems.append("target table has rows without a PASS/MISS/n/a result")
    if problems:
        print("incomplete benchmark report:\n  " + "\n  ".join(problems), file=sys.stderr)
        sys.exit(1)
    print(f"benchmark report complete: {len(args.corpus)} corpora x {len(configs)} configurations")


if __name__ == "__main__":
    main()
