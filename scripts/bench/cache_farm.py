#!/usr/bin/env python3
"""The shared cache across checkouts and machines: second-checkout mount time and hit rates.

    scripts/bench/cache_farm.py [--anchorfs BIN] [--corpus PATH] [--changed N] [--reps N]
                                [--work DIR] [--output FILE|-]

Two checkouts of one project in two directories: A is the corpus (default Debian's sympy), B the
same tree with N files changed (default 60, every k-th Python file gets a new function: about
what separates two SWE-bench task commits of sympy; no older sympy ships with Debian, so the
second commit is made by editing). In one run, medians of --reps, each rep with fresh caches:

- local: cold mount of A with an empty cache root, then cold mount of B with the same root;
- redis: a real redis-server on a loopback port; "machine 1" mounts A with its own empty cache
  root and the Redis tier, "machine 2" mounts B with another empty root and the same Redis.

Reports mount seconds, files parsed vs taken from a cache (the mount's summary line), the hit
rate (files not parsed / files analysed) and the ratio B/A (issue 15's row: <= 40 %). Prints a
Markdown table; with --output FILE writes it between the `cache-farm` markers of FILE.
"""
import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from system import BenchError, is_mounted, log  # noqa: E402

BEGIN, END = "<!-- cache-farm:begin -->", "<!-- cache-farm:end -->"
SUMMARY = re.compile(r"(\d+) source files \(([^)]*)\)")


def counts(summary):
    """(files, parsed) from a mount summary like '1472 source files (60 parsed, 1412 from cache)'."""
    match = SUMMARY.search(summary)
    if not match:
        raise BenchError(f"no source-file counts in: {summary!r}")
    files = int(match.group(1))
    parsed = 0
    for part in match.group(2).split(","):
        words = part.split()
        if len(words) >= 2 and words[1] == "parsed":
            parsed = int(words[0])
    return files, parsed


def make_checkouts(corpus, changed, work):
    a, b = os.path.join(work, "a"), os.path.join(work, "b")
    for path in (a, b):
        shutil.rmtree(path, ignore_errors=True)
        shutil.copytree(corpus, path, symlinks=True)
    sources = sorted(os.path.relpath(os.path.join(d, f), b)
                     for d, _, fs in os.walk(b) for f in fs if f.endswith(".py"))
    step = max(1, len(sources) // max(1, changed))
    edited = sources[::step][:changed]
    for n, rel in enumerate(edited):
        with open(os.path.join(b, rel), "a", encoding="utf-8") as f:
            f.write(f"\n\ndef _second_commit_{n}():\n    return {n}\n")
    return a, b, len(edited)


def mount(anchorfs, repo, mnt, cache, remote=None):
    argv = [anchorfs, "mount", "--threads", "2", "--cache-dir", cache, repo, mnt]
    if remote:
        # The farm key every machine of a farm reads (the remote tier is not used without one).
        key = os.path.join(cache, "..", "farm.key")
        if not os.path.exists(key):
            with open(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
                f.write(os.urandom(24).hex())
        argv[2:2] = ["--remote-cache", remote, "--remote-cache-key-file", key]
    start = time.monotonic()
    result = subprocess.run(argv, check=True, capture_output=True, text=True)
    seconds = time.monotonic() - start
    subprocess.run([anchorfs, "unmount", mnt], check=True, capture_output=True)
    if is_mounted(mnt):
        raise BenchError(f"{mnt} still mounted")
    files, parsed = counts(result.stderr + result.stdout)
    return seconds, files, parsed


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    def __init__(self, work):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(dir=work, prefix="redis-")
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.dir], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise BenchError("redis-server did not start")
            time.sleep(0.05)

    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    def stop(self):
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def run(args):
    work = args.work
    os.makedirs(work, exist_ok=True)
    a, b, edited = make_checkouts(args.corpus, args.changed, work)
    mnt = os.path.join(work, "mnt")
    os.makedirs(mnt, exist_ok=True)
    rows = {"local": [], "redis": []}
    for _ in range(args.reps):
        cache = tempfile.mkdtemp(dir=work, prefix="cache-")
        rows["local"].append((mount(args.anchorfs, a, mnt, cache), mount(args.anchorfs, b, mnt, cache)))
        shutil.rmtree(cache)
        redis = Redis(work)
        try:
            machine1 = tempfile.mkdtemp(dir=work, prefix="m1-")
            machine2 = tempfile.mkdtemp(dir=work, prefix="m2-")
            rows["redis"].append((mount(args.anchorfs, a, mnt, machine1, redis.url()),
                                  mount(args.anchorfs, b, mnt, machine2, redis.url())))
            shutil.rmtree(machine1)
            shutil.rmtree(machine2)
        finally:
            redis.stop()
    return rows, edited


def table(rows, edited, args):
    lines = [
        f"Shared cache (`scripts/bench/cache_farm.py`, corpus `{args.corpus}`, checkout B = A with "
        f"{edited} files changed; medians of {args.reps}, fresh caches each rep):",
        "",
        "| set-up | mount A (cold) | mount B | B / A | B: files parsed | B: hit rate |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    names = {"local": "one machine, one cache root", "redis": "machine 2 (empty local root) after machine 1, one Redis"}
    for key in ("local", "redis"):
        first = statistics.median(r[0][0] for r in rows[key])
        second = statistics.median(r[1][0] for r in rows[key])
        files, parsed = rows[key][-1][1][1], rows[key][-1][1][2]
        hit = (files - parsed) / files if files else 0
        lines.append(f"| {names[key]} | {first:.2f} s | {second:.2f} s | {100 * second / first:.0f} % | "
                     f"{parsed} of {files} | {100 * hit:.1f} % |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchorfs", default=os.path.join(ROOT, "build", "cli", "anchorfs"))
    parser.add_argument("--corpus", default="/usr/lib/python3/dist-packages/sympy")
    parser.add_argument("--changed", type=int, default=60)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "anchorfs-bench-cache"))
    parser.add_argument("--output", default="-")
    args = parser.parse_args()
    rows, edited = run(args)
    text = table(rows, edited, args)
    if args.output != "-":
        with open(args.output, encoding="utf-8") as f:
            doc = f.read()
        if BEGIN not in doc:
            doc += f"\n## Shared cache\n\n{BEGIN}\n{END}\n"
        head, rest = doc.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(head + BEGIN + "\n" + text + END + tail)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
