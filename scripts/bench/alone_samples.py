#!/usr/bin/env python3
"""CPU samples a cold mount's daemon ran on one core while its other threads had nothing to run.

    perf record -e cpu-clock -F 999 -e syscalls:sys_exit_mount -k CLOCK_MONOTONIC -o OUT.data -- \\
        anchorfs mount -f --threads 2 --cache-dir EMPTY --view auto REPO MNT  # unmount once mounted
    perf script -i OUT.data -F comm,tid,time,event,ip,sym > OUT.txt
    scripts/bench/alone_samples.py OUT.txt

Samples up to the mount(2) that makes the mount appear. The daemon's compute threads are those
with 20 samples or more; a 250 ms window in which only one of them has samples counts its samples
as "alone" (on a loaded machine a runnable thread still gets some of every 250 ms, so an empty
window means it had nothing to run). On a quiet 2-core machine the wall is about (all + alone) / 2
samples. Also lists the alone windows with their top symbols.
"""
import collections
import sys

WINDOW = 0.25


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rows = []
    for line in open(sys.argv[1]):
        fields = line.split()
        if len(fields) < 4:
            continue
        if fields[3].startswith("syscalls:sys_exit_mount"):
            break
        if fields[3] == "cpu-clock:":
            rows.append((int(fields[1]), float(fields[2].rstrip(":")),
                         fields[5] if len(fields) > 5 else "?"))
    if not rows:
        sys.exit("no cpu-clock samples before mount(2)")
    counts = collections.Counter(tid for tid, _, _ in rows)
    compute = {tid for tid, n in counts.items() if n >= 20}
    start = rows[0][1]
    windows = collections.defaultdict(list)
    for tid, time, symbol in rows:
        if tid in compute:
            windows[int((time - start) / WINDOW)].append((tid, symbol))
    alone = 0
    lines = []
    for w in sorted(windows):
        tids = {tid for tid, _ in windows[w]}
        if len(tids) != 1:
            continue
        alone += len(windows[w])
        top = collections.Counter(symbol for _, symbol in windows[w]).most_common(3)
        lines.append(f"  {w * WINDOW:7.2f} s: {len(windows[w])} samples, "
                     + ", ".join(f"{symbol[:40]} {n}" for symbol, n in top))
    total = len(rows)
    print(f"samples until mount(2): {total}; alone: {alone} ({100.0 * alone / total:.1f} %); "
          f"quiet 2-core wall estimate (all + alone) / 2 = {(total + alone) // 2}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
