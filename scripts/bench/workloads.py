#!/usr/bin/env python3
"""The timed workloads (rg, grep -r, cat, random reads) and tree census helpers."""

import os
import stat
import statistics
import subprocess
import sys
import time

from system import BenchError


RG_PATTERN = "def "


RANDREAD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "randread.py")


def run_timed(cmd, cwd, shell=False, ok=(0,)):
    env = dict(os.environ, LC_ALL="C")
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, shell=shell, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=3600)
    seconds = time.perf_counter() - start
    if proc.returncode not in ok:
        raise BenchError(f"{cmd} in {cwd} exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-300:]}")
    return seconds, proc.stdout


def rg_pass(root):
    seconds, out = run_timed(["rg", "--no-config", "-c", RG_PATTERN, "."], root, ok=(0, 1))
    return seconds, sum(int(line.rsplit(b":", 1)[1]) for line in out.splitlines() if b":" in line)


def grep_pass(root):
    seconds, out = run_timed(["grep", "-r", "-c", RG_PATTERN, "."], root, ok=(0, 1))
    return seconds, sum(int(line.rsplit(b":", 1)[1]) for line in out.splitlines() if b":" in line)


def cat_pass(root):
    return run_timed("find . -type f -print0 | xargs -0 cat > /dev/null", root, shell=True)[0]


def rand_pass(root, listing, reads):
    _, out = run_timed([sys.executable, RANDREAD, root, "--list", listing, "--reads", str(reads)], root)
    return float(out.split()[0])


def tree_census(root):
    """(regular files, their bytes, bytes of the .py files among them) under root."""
    files = size = py_bytes = 0
    for dirpath, _, names in os.walk(root):
        for n in names:
            st = os.lstat(os.path.join(dirpath, n))
            if stat.S_ISREG(st.st_mode):
                files += 1
                size += st.st_size
                py_bytes += st.st_size if n.endswith(".py") else 0
    return files, size, py_bytes


def corpus_lines(root):
    lines = 0
    for dirpath, _, names in os.walk(root):
        for n in names:
            if n.endswith(".py"):
                with open(os.path.join(dirpath, n), "rb") as f:
                    lines += f.read().count(b"\n")
    return lines


def write_listing(root, path):
    rels = []
    for dirpath, dirnames, names in os.walk(root):
        dirnames.sort()
        for n in sorted(names):
            full = os.path.join(dirpath, n)
            if os.path.isfile(full) and not os.path.islink(full):
                rels.append(os.path.relpath(full, root))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(rels) + "\n")


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def warm_source(src):
    """Reads the source once so a timed mount measures analysis, not the disk."""
    subprocess.run(f"find '{src}' -type f -print0 | xargs -0 cat > /dev/null", shell=True, check=False)
