#!/usr/bin/env python3
"""Writable mounts (issue 23): the daemon's memory while a large file is written through the
mount, and a `git checkout` that changes many files, in the mount vs in the checkout.

    writable.py --anchorfs BIN --work DIR [--write-mib 1024] [--files 300] [--reps 3]

Memory: a new file of WRITE_MIB MiB is written with dd (1 MiB blocks) into a writable mount of
a small repository; the daemon's VmRSS, RssAnon and VmHWM (peak) are read from /proc before and
after. Branch switch: a repository of FILES+50 Python files and a branch that changes FILES of
them; `git checkout other` then `git checkout main`, timed in the checkout and in a writable
mount of it (a fresh clone each), medians of REPS, interleaved. Prints a Markdown table."""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

GIT_ENV = dict(os.environ, LC_ALL="C", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null",
               GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@localhost",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@localhost")


def run(cmd, cwd=None):
    proc = subprocess.run(cmd, cwd=cwd, env=GIT_ENV, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"writable: {' '.join(cmd)} failed: {proc.stderr[-400:]}")
    return proc.stdout


def daemon_pid(anchorfs, repo, mnt):
    out = subprocess.run(["pgrep", "-f", f"{anchorfs} mount {repo} {mnt}"], capture_output=True,
                         text=True).stdout.split()
    if not out:
        sys.exit("writable: the mount's daemon was not found")
    return int(out[0])


def memory_kib(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "VmHWM"):
                fields[key] = int(value.split()[0])
    return fields


def mount(anchorfs, repo, mnt, extra=()):
    os.makedirs(mnt, exist_ok=True)
    run([anchorfs, "mount", repo, mnt, "--writable", "--view", "topo", *extra])


def unmount(anchorfs, mnt):
    subprocess.run([anchorfs, "unmount", mnt], capture_output=True)


def python_repo(path, files):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(os.path.join(path, "pkg"))
    for i in range(files + 50):
        callee = f"from pkg.m{i - 1} import f{i - 1}\n\n\n" if i > 0 else ""
        body = f"    return f{i - 1}(x) + {i}\n" if i > 0 else "    return x\n"
        with open(os.path.join(path, "pkg", f"m{i}.py"), "w") as f:
            f.write(f"{callee}def f{i}(x):\n{body}")
    run(["git", "init", "-q", "-b", "main"], path)
    run(["git", "add", "-A"], path)
    run(["git", "commit", "-qm", "main"], path)
    run(["git", "checkout", "-qb", "other"], path)
    for i in range(files):
        with open(os.path.join(path, "pkg", f"m{i}.py"), "a") as f:
            f.write(f"\n\ndef g{i}():\n    return {i}\n")
    run(["git", "commit", "-qam", "other"], path)
    run(["git", "checkout", "-q", "main"], path)


def memory_table(args):
    repo = os.path.join(args.work, "mem-repo")
    mnt = os.path.join(args.work, "mem-mnt")
    python_repo(repo, 5)
    mount(args.anchorfs, repo, mnt)
    try:
        pid = daemon_pid(args.anchorfs, repo, mnt)
        before = memory_kib(pid)
        start = time.perf_counter()
        run(["dd", "if=/dev/zero", f"of={mnt}/big.bin", "bs=1M", f"count={args.write_mib}",
             "conv=fsync", "status=none"])
        seconds = time.perf_counter() - start
        after = memory_kib(pid)
        size = os.path.getsize(os.path.join(repo, "big.bin"))
    finally:
        unmount(args.anchorfs, mnt)
    if size != args.write_mib << 20:
        sys.exit(f"writable: stored {size} bytes, wrote {args.write_mib << 20}")
    print(f"\nWriting {args.write_mib} MiB (dd bs=1M) through a writable mount: {seconds:.1f} s\n")
    print("| daemon | before | after | growth |")
    print("| --- | ---: | ---: | ---: |")
    for key, label in (("VmRSS", "resident (VmRSS)"), ("RssAnon", "heap etc. (RssAnon)"),
                       ("VmHWM", "peak resident (VmHWM)")):
        print(f"| {label} | {before[key] / 1024:.1f} MiB | {after[key] / 1024:.1f} MiB | "
              f"{(after[key] - before[key]) / 1024:+.1f} MiB |")


def switch_times(repo_template, work, anchorfs, in_mount):
    repo = os.path.join(work, "switch-repo")
    shutil.rmtree(repo, ignore_errors=True)
    run(["git", "clone", "-q", repo_template, repo])
    run(["git", "branch", "-q", "other", "origin/other"], repo)
    where = repo
    mnt = os.path.join(work, "switch-mnt")
    if in_mount:
        mount(anchorfs, repo, mnt)
        where = mnt
    try:
        times = []
        for branch in ("other", "main"):
            start = time.perf_counter()
            run(["git", "checkout", "-q", branch], where)
            times.append(time.perf_counter() - start)
        return times
    finally:
        if in_mount:
            unmount(anchorfs, mnt)


def switch_table(args):
    template = os.path.join(args.work, "switch-template")
    python_repo(template, args.files)
    results = {False: [[], []], True: [[], []]}
    for _ in range(args.reps):
        for in_mount in (False, True):
            for k, seconds in enumerate(switch_times(template, args.work, args.anchorfs, in_mount)):
                results[in_mount][k].append(seconds)
    print(f"\n`git checkout` changing {args.files} files ({args.files + 50} in the repository), "
          f"median of {args.reps}:\n")
    print("| command | checkout | writable mount | ratio |")
    print("| --- | ---: | ---: | ---: |")
    for k, label in enumerate(("git checkout other", "git checkout main")):
        plain = statistics.median(results[False][k])
        mounted = statistics.median(results[True][k])
        print(f"| `{label}` | {plain:.2f} s | {mounted:.2f} s | {mounted / plain:.1f}x |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchorfs", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--write-mib", type=int, default=1024)
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    args.anchorfs = os.path.abspath(args.anchorfs)
    os.makedirs(args.work, exist_ok=True)
    memory_table(args)
    switch_table(args)


if __name__ == "__main__":
    main()
