#!/usr/bin/env python3
"""C and C++ at scale: the Linux kernel and Boost's headers, beside the one-thread parse floor.

    scripts/bench/cfamily.py [--anchorfs BIN] [--parse-floor BIN] [--reps N] [--work DIR]
                             [--corpus NAME=PATH ...] [--output FILE|-]

Corpora (Debian packages): `linux-source-6.1` (unpack /usr/src/linux-source-6.1.tar.xz into
WORK first: `tar xJf /usr/src/linux-source-6.1.tar.xz -C WORK`) and `libboost1.81-dev`
(/usr/include/boost, copied into WORK so the refresh probe never edits a system file). For each:
the one-thread parse floor (anchorfs_parse_floor), the cold mount (fresh cache, 2 analysis
threads; `anchorfs mount` returns when the view is ready), the daemon's peak and settled RSS,
the refresh after a one-file edit (a function appended that calls a function of the same file:
seconds until the mount shows its bytes and its tag block) and the warm remount (same cache);
medians of --reps. Targets (issue 26): kernel cold <= 1.3 x (floor / 2), warm <= 1 s,
refresh <= 1 s. Prints a Markdown table; with --output FILE writes it between the `cfamily`
markers of FILE. Run it under `nice` on a shared machine.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from languages import parse_floor  # noqa: E402
from measure import wait_for  # noqa: E402
from system import (BenchError, cpu_seconds, find_daemon, fuse_holders, is_mounted, log,  # noqa: E402
                    vm_hwm_mb, vm_rss_mb)

BEGIN, END = "<!-- cfamily:begin -->", "<!-- cfamily:end -->"
PROBE = ("\n\nstatic int anchorfs_bench_callee(void)\n{\n\treturn 0;\n}\n\n"
         "int anchorfs_bench_probe(void)\n{\n\treturn anchorfs_bench_callee();\n}\n")


def default_corpora(work):
    return {"linux 6.1": os.path.join(work, "linux-source-6.1"), "boost 1.81": os.path.join(work, "boost")}


def prepare(name, path):
    if name.startswith("boost") and not os.path.isdir(path) and os.path.isdir("/usr/include/boost"):
        shutil.copytree("/usr/include/boost", path, symlinks=True)
    return os.path.isdir(path)


def census(root):
    files = lines = 0
    exts = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".ipp", ".tcc", ".inl")
    for dirpath, _, names in os.walk(root):
        for n in names:
            if n.endswith(exts):
                files += 1
                with open(os.path.join(dirpath, n), "rb") as f:
                    lines += f.read().count(b"\n")
    return files, lines


def probe_file(root):
    """A mid-sized .c file (or a header for a header-only tree) to append the probe to."""
    best = None
    for dirpath, dirnames, names in os.walk(root):
        dirnames.sort()
        for n in sorted(names):
            if n.endswith((".c", ".cpp", ".hpp")):
                path = os.path.join(dirpath, n)
                size = os.path.getsize(path)
                if 20_000 <= size <= 40_000:
                    return os.path.relpath(path, root)
                best = best or os.path.relpath(path, root)
    return best


def mount(anchorfs, root, mnt, cache):
    before = fuse_holders()
    start = time.monotonic()
    subprocess.run([anchorfs, "mount", "--threads", "2", "--cache-dir", cache, "--view", "topo",
                    root, mnt], check=True, capture_output=True)
    return time.monotonic() - start, find_daemon(mnt, before)


def unmount(anchorfs, mnt):
    subprocess.run([anchorfs, "unmount", mnt], check=True, capture_output=True)
    if is_mounted(mnt):
        raise BenchError(f"{mnt} still mounted")


def measure(name, root, args):
    floor = parse_floor(args.parse_floor, root)
    files, lines = census(root)
    mnt = os.path.join(args.work, "mnt")
    os.makedirs(mnt, exist_ok=True)
    rel = probe_file(root)
    cold, cpu, warm, hwm, rss, refresh_bytes, refresh_tags = [], [], [], [], [], [], []
    for _ in range(args.reps):
        cache = tempfile.mkdtemp(dir=args.work, prefix="cache-")
        seconds, daemon = mount(args.anchorfs, root, mnt, cache)
        cold.append(seconds)
        if daemon:
            cpu.append(cpu_seconds(daemon))
            hwm.append(vm_hwm_mb(daemon))
            rss.append(vm_rss_mb(daemon))
        path = os.path.join(root, rel)
        with open(path, "rb") as f:
            original = f.read()
        try:
            with open(path, "ab") as f:
                f.write(PROBE.encode())
            seen = wait_for({os.path.join(mnt, rel): {
                "bytes": b"int anchorfs_bench_probe(void)",
                "tags": f"function: {rel}:anchorfs_bench_probe".encode()}}, args.timeout)
        finally:
            with open(path, "wb") as f:
                f.write(original)
        refresh_bytes.append(seen["bytes"])
        refresh_tags.append(seen["tags"])
        unmount(args.anchorfs, mnt)
        seconds, _ = mount(args.anchorfs, root, mnt, cache)
        warm.append(seconds)
        unmount(args.anchorfs, mnt)
        shutil.rmtree(cache, ignore_errors=True)

    def med(values):
        values = [v for v in values if v is not None]
        return statistics.median(values) if values else None

    cold_s = med(cold)
    return {"name": name, "root": root, "files": files, "lines": lines, "floor": floor,
            "cold": cold_s, "ratio": cold_s / (floor / 2) if floor > 0 else float("nan"),
            "cpu": med(cpu), "hwm": med(hwm), "rss": med(rss), "warm": med(warm), "probe": rel,
            "refresh_bytes": med(refresh_bytes), "refresh_tags": med(refresh_tags)}


def fmt(value, unit):
    return "—" if value is None else f"{value:.2f} {unit}"


def table(rows, reps):
    out = [f"C and C++ at scale (`scripts/bench/cfamily.py`, medians of {reps}; 2 analysis threads; "
           "parse floor = one-thread tree-sitter CPU; daemon CPU = its user+system seconds when the view "
           "is ready, which a loaded machine does not inflate; targets: kernel cold ≤ 1.3 × floor / 2, "
           "warm ≤ 1 s, one-file refresh ≤ 1 s):", "",
           "| corpus | files | lines | parse floor (1 thread) | cold mount | cold / (floor/2) | daemon CPU / floor | "
           "daemon RSS peak / settled | warm remount | refresh: bytes / tags |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        out.append(f"| {r['name']} | {r['files']:,} | {r['lines']:,} | {r['floor']:.1f} s | "
                   f"{r['cold']:.1f} s | {r['ratio']:.2f}× | "
                   f"{'—' if r['cpu'] is None else format(r['cpu'] / r['floor'], '.2f') + '×'} | {fmt(r['hwm'], 'MB')} / {fmt(r['rss'], 'MB')} | "
                   f"{fmt(r['warm'], 's')} | {fmt(r['refresh_bytes'], 's')} / {fmt(r['refresh_tags'], 's')} |")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchorfs", default=os.path.join(ROOT, "build", "cli", "anchorfs"))
    parser.add_argument("--parse-floor", default=os.path.join(ROOT, "build", "analysis", "anchorfs_parse_floor"))
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--work", default=os.path.join("/var/tmp", "anchorfs-bench-cfamily"))
    parser.add_argument("--corpus", action="append", default=[], metavar="NAME=PATH")
    parser.add_argument("--output", default="-")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    corpora = dict(spec.split("=", 1) for spec in args.corpus) if args.corpus else default_corpora(args.work)
    rows = []
    for name, path in corpora.items():
        if not prepare(name, path):
            log(f"{name}: {path} missing (see the docstring); skipped")
            continue
        log(f"{name}: {path}")
        rows.append(measure(name, path, args))
    text = table(rows, args.reps)
    if args.output != "-":
        doc = open(args.output, encoding="utf-8").read()
        if BEGIN not in doc:
            with open(args.output, "a", encoding="utf-8") as f:
                f.write(f"\n## C and C++ at scale\n\n{BEGIN}\n{END}\n")
        write_between_markers_named(args.output, text)
    sys.stdout.write(text)
    return 0


def write_between_markers_named(path, text):
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n" + text + END + tail)


if __name__ == "__main__":
    sys.exit(main())
