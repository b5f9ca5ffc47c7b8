#!/usr/bin/env python3
"""A cold mount's tail: what ran after the last parse, before and after the resolver's last evaluation.

    perf record -e cpu-clock -F 999 -e syscalls:sys_exit_mount -k CLOCK_MONOTONIC \\
        --call-graph dwarf,16384 -o OUT.data -- \\
        anchorfs mount -f --threads 2 --cache-dir EMPTY --view auto REPO MNT  # unmount once mounted
    perf script -i OUT.data -F comm,tid,time,event,ip,sym > OUT.txt
    scripts/bench/tail_phases.py OUT.txt [FUNCTION ...]

Samples (1 ms of CPU each at -F 999) up to the mount(2) that makes the mount appear. Windows: the
last tree-sitter sample, the resolver's last evaluation sample (evaluate_file, evaluate_marked,
Resolver::eval in the three innermost frames), the first render_file_tags sample after it. For
each FUNCTION (a substring of a frame; defaults below), the samples whose call chain holds it,
between the last parse and the last evaluation ("beside the rounds") and after it. Without call
chains (no --call-graph) only leaf frames count.
"""
import re
import sys

EVALUATION = ("evaluate_file", "evaluate_marked", "Resolver::eval")
DEFAULTS = ["ModuleIndex", "ImportTable", "index_files", "bind_names", "bind_imports",
            "index_params", "GraphIndex::GraphIndex", "add_edges", "render_file_tags", "emit_edges",
            "export_base", "sort_edges", "make_snapshot", "clear_page_erms"]


def read(path):
    samples, current, mount = [], None, None
    for line in open(path):
        if line.startswith("\t"):
            if current is not None:
                parts = line.strip().split(None, 1)
                current[2].append(re.sub(r"\(.*", "", parts[1]) if len(parts) > 1 else "?")
        elif line.strip():
            fields = line.split()
            if fields[3].startswith("syscalls:sys_exit_mount"):
                mount = float(fields[2].rstrip(":"))
                break
            current = [int(fields[1]), float(fields[2].rstrip(":")), []]
            samples.append(current)
    return samples, mount


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    samples, mount = read(sys.argv[1])
    if mount is None:
        sys.exit("no mount(2) in the trace")
    frames = [s for s in samples if s[2]]
    last_parse = max(s[1] for s in frames if s[2][0].startswith("ts_"))
    last_eval = max(s[1] for s in frames if any(e in f for f in s[2][:3] for e in EVALUATION))
    first_render = min((s[1] for s in frames if s[1] > last_eval
                        and any("render_file_tags" in f for f in s[2])), default=mount)
    between = sum(1 for s in samples if last_eval < s[1] < first_render)
    print(f"last parse -> last evaluation {last_eval - last_parse:.3f} s; "
          f"-> first render {first_render - last_eval:.3f} s ({between} samples); "
          f"-> mount(2) {mount - first_render:.3f} s")
    for name in sys.argv[2:] or DEFAULTS:
        def count(low, high):
            return sum(1 for s in frames if low < s[1] <= high and any(name in f for f in s[2]))
        print(f"  {name:24} beside the rounds {count(last_parse, last_eval):4d}"
              f"  after the last evaluation {count(last_eval, mount):4d}")


if __name__ == "__main__":
    main()
