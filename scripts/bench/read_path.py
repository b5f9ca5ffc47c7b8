#!/usr/bin/env python3
"""The read path's cost in the daemon, counted in instructions (valgrind, so a busy machine does
not move it): a fresh mount, a fixed read workload, unmount; minus the same mount with no workload.

    read_path.py --anchorfs BIN [--anchorfs BIN2 ...] --corpus DIR --work DIR [--reps 2]

Each binary is run in three modes: `--view none` read-only (passthrough), `--view topo`
read-only (tagged layouts) and `--view topo --writable`; each a warm mount (the cache filled by one
mount outside valgrind first), `--no-watch`, one serving thread. The workload: every file read
whole once in path order (lookups, listings, opens, reads of cold pages), then 3,000 seeded
open + pread(4 KiB) + close (scripts/bench/randread.py), which in a writable mount reach the daemon
as opens. Prints a Markdown table of millions of instructions per workload."""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODES = [("none, read-only", ["--view", "none"]),
         ("topo, read-only", ["--view", "topo"]),
         ("topo, writable", ["--view", "topo", "--writable"])]


def wait_mounted(mnt, mounted, deadline_s=600):
    deadline = time.monotonic() + deadline_s
    while os.path.ismount(mnt) != mounted:
        if time.monotonic() > deadline:
            sys.exit(f"read_path: {mnt} did not {'mount' if mounted else 'unmount'}")
        time.sleep(0.05)


def workload(mnt, files_list):
    with open(files_list, encoding="utf-8") as f:
        paths = [line.rstrip("\n") for line in f if line.strip()]
    for path in paths:
        with open(os.path.join(mnt, path), "rb") as f:
            while f.read(1 << 17):
                pass
    subprocess.run([sys.executable, os.path.join(HERE, "randread.py"), mnt, "--list", files_list,
                    "--reads", "3000"], check=True, capture_output=True)


def instructions(anchorfs, corpus, mnt, cache, mode, files_list, work, run_workload):
    out = os.path.join(work, "cg.out")
    for old in glob.glob(out + "*"):
        os.remove(old)
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}",
           anchorfs, "mount", corpus, mnt, "-f", "--threads", "1", "--no-watch",
           "--cache-dir", cache, *mode]
    daemon = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_mounted(mnt, True)
    os.listdir(mnt)
    if run_workload:
        workload(mnt, files_list)
    subprocess.run(["fusermount3", "-u", mnt], check=True)
    _, err = daemon.communicate()
    with open(out, encoding="utf-8") as f:
        for line in f:
            if line.startswith("summary:"):
                return int(line.split()[1])
    sys.exit(f"read_path: no cachegrind summary ({err[-400:]})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--anchorfs", action="append", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--reps", type=int, default=2)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    corpus = os.path.abspath(args.corpus)
    mnt = os.path.join(args.work, "mnt")
    os.makedirs(mnt, exist_ok=True)
    files_list = os.path.join(args.work, "files.txt")
    with open(files_list, "w", encoding="utf-8") as f:
        for root, dirs, files in os.walk(corpus):
            dirs.sort()
            for name in sorted(files):
                if os.path.isfile(os.path.join(root, name)):
                    f.write(os.path.relpath(os.path.join(root, name), corpus) + "\n")
    rows = []
    for number, binary in enumerate(args.anchorfs):
        binary = os.path.abspath(binary)
        cache = os.path.join(args.work, f"cache-{number}")
        shutil.rmtree(cache, ignore_errors=True)
        for label, mode in MODES:
            # Fill the cache outside valgrind, so the counted mount is a warm one.
            subprocess.run([binary, "mount", corpus, mnt, "--no-watch", "--cache-dir", cache,
                            *mode], check=True, capture_output=True)
            subprocess.run([binary, "unmount", mnt], check=True, capture_output=True)
            wait_mounted(mnt, False)
            counts = []
            for _ in range(args.reps):
                idle = instructions(binary, corpus, mnt, cache, mode, files_list, args.work, False)
                busy = instructions(binary, corpus, mnt, cache, mode, files_list, args.work, True)
                counts.append(busy - idle)
            rows.append((binary, label, counts))
            print(f"{binary} {label}: {[round(c / 1e6, 2) for c in counts]} M", file=sys.stderr)
    print("| binary | mode | read workload, M instructions (each repetition) |")
    print("| --- | --- | --- |")
    for binary, label, counts in rows:
        print(f"| `{binary}` | {label} | {', '.join(f'{c / 1e6:.2f}' for c in counts)} |")


if __name__ == "__main__":
    main()
