#!/usr/bin/env python3
"""Random-offset reads over every file of a tree (fixed seed): open, pread 4 KiB, close; prints seconds.

The file list comes from --list (one relative path per line, the same for every configuration)
so each filesystem sees the same sequence of files and relative offsets.
"""

import argparse
import os
import random
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--list", required=True, help="file with relative paths, one per line")
    parser.add_argument("--reads", type=int, default=20000)
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with open(args.list, encoding="utf-8") as f:
        paths = [line.rstrip("\n") for line in f if line.strip()]
    rng = random.Random(args.seed)
    plan = [(rng.randrange(len(paths)), rng.random()) for _ in range(args.reads)]
    total = 0
    start = time.perf_counter()
    for index, fraction in plan:
        path = os.path.join(args.root, paths[index])
        fd = os.open(path, os.O_RDONLY)
        try:
            size = os.fstat(fd).st_size
            total += len(os.pread(fd, args.size, int(fraction * size)))
        finally:
            os.close(fd)
    elapsed = time.perf_counter() - start
    print(f"{elapsed:.6f} {total}")


if __name__ == "__main__":
    main()
