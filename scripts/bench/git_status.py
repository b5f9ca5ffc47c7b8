#!/usr/bin/env python3
"""Git inside a mount vs the checkout: warm `git status` (and `git diff`) on a git repository of
sympy, side by side, with the ratio and the issue-11 target (mount <= 2x checkout).

    git_status.py --anchorfs BIN --work DIR [--corpora-dir DIR] [--repo GIT_CHECKOUT] [--reps N]

Without --repo, a repository is made once under --corpora-dir (default WORK) from Debian's sympy
sources: one commit of every file, the working tree a clone has, without its history. The mount
goes under WORK."""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

SYMPY = "/usr/lib/python3/dist-packages/sympy"
TARGET = 2.0
GIT_ENV = dict(os.environ, LC_ALL="C", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null",
               GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@localhost",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@localhost")
COMMANDS = [["git", "status"], ["git", "status", "--porcelain"], ["git", "diff", "--stat"]]


def git(args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, check=True, capture_output=True,
                          text=True).stdout


def sympy_repository(work):
    repo = os.path.join(work, "sympy-git", "sympy")
    if not os.path.isdir(os.path.join(repo, ".git")):
        shutil.rmtree(os.path.dirname(repo), ignore_errors=True)
        shutil.copytree(SYMPY, repo, ignore=shutil.ignore_patterns("__pycache__"))
        git(["init", "-q", "-b", "main"], repo)
        git(["add", "-A"], repo)
        git(["commit", "-q", "-m", "sympy"], repo)
    return repo


def timed(cmd, cwd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=GIT_ENV, capture_output=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"git_status: {' '.join(cmd)} in {cwd} failed: {proc.stderr.decode()[-300:]}")
    return seconds, proc.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchorfs", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--corpora-dir", help="where the sympy repository is made and kept")
    parser.add_argument("--repo", help="a git checkout (default: sympy made into a repository)")
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    repo = os.path.realpath(args.repo or sympy_repository(args.corpora_dir or args.work))
    mnt = os.path.join(args.work, "git-mnt")
    os.makedirs(mnt, exist_ok=True)
    cache = os.path.join(args.work, "git-cache")
    subprocess.run([args.anchorfs, "mount", repo, mnt, "--cache-dir", cache], check=True,
                   capture_output=True)
    rows, ok = [], True
    try:
        files = len(git(["ls-files"], repo).splitlines())
        for cmd in COMMANDS:
            outputs = {}
            times = {"checkout": [], "mount": []}
            for where in ("checkout", "mount"):  # warm-up: page, dentry and attribute caches
                outputs[where] = timed(cmd, repo if where == "checkout" else mnt)[1]
            for _ in range(args.reps):  # interleaved, so load changes hit both sides alike
                for where in ("checkout", "mount"):
                    times[where].append(timed(cmd, repo if where == "checkout" else mnt)[0])
            same = outputs["checkout"] == outputs["mount"]
            checkout, mount = statistics.median(times["checkout"]), statistics.median(times["mount"])
            ratio = mount / checkout if checkout > 0 else float("inf")
            passed = same and ratio <= TARGET
            ok &= passed
            rows.append((" ".join(cmd), checkout, mount, ratio, same, passed))
    finally:
        subprocess.run([args.anchorfs, "unmount", mnt], capture_output=True)
    print(f"\n### git in the mount ({repo}, {files} tracked files; warm, median of {args.reps})\n")
    print("| command | checkout | mount | mount/checkout | same output | target <= 2x |")
    print("| --- | ---: | ---: | ---: | --- | --- |")
    for name, checkout, mount, ratio, same, passed in rows:
        print(f"| `{name}` | {checkout * 1000:.0f} ms | {mount * 1000:.0f} ms | {ratio:.2f}x | "
              f"{'yes' if same else 'NO'} | {'PASS' if passed else 'MISS'} |")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
