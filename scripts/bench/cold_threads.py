#!/usr/bin/env python3
"""Cold mounts measured per daemon thread: is any core idle before the mount serves?

    scripts/bench/cold_threads.py ROUNDS REPO ANCHORFS [ANCHORFS ...]

ROUNDS times, each ANCHORFS in turn (alternated, so the machine's load falls on all alike): a
cold mount (`mount -f --threads 2 --view auto`, a fresh cache directory) and, at its "mounted"
line, the daemon's CPU (user+system, /proc) in all and per thread, busiest first, its system part
(page faults, fresh pages zeroed) and peak RSS (VmHWM); then unmount.
On a quiet 2-core machine the wall follows the busiest thread; the gap between the two busiest is
CPU one core ran while the other had nothing to do ("rest": threads that are gone or small).
Walls on a loaded machine are the load's: compare the busiest thread and the gap. Since the
parse runs on plain threads (analysis/plain_threads.h) its helper thread has exited by the
"mounted" line, so its CPU is in "rest" and "second" says little: use scripts/bench/
alone_samples.py for idle cores then; the busiest thread still bounds a quiet machine's wall.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import warm_refresh  # scripts/bench: the same foreground mount

TICK = os.sysconf("SC_CLK_TCK")
ENV = warm_refresh.ENV


def cpu(stat_path):
    fields = open(stat_path).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def system_cpu(stat_path):
    return int(open(stat_path).read().rsplit(")", 1)[1].split()[12]) / TICK


def peak_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) / 1024
    return 0.0


def cold_mount(anchorfs, repo, work):
    cache, mnt, log = (os.path.join(work, name) for name in ("cache", "mnt", "log"))
    shutil.rmtree(cache, ignore_errors=True)
    os.makedirs(cache)
    os.makedirs(mnt, exist_ok=True)
    daemon, wall = warm_refresh.mount(anchorfs, cache, repo, mnt, log, view="auto")
    total = cpu(f"/proc/{daemon.pid}/stat")
    system = system_cpu(f"/proc/{daemon.pid}/stat")
    peak = peak_mb(daemon.pid)
    tasks = f"/proc/{daemon.pid}/task"
    threads = sorted((cpu(f"{tasks}/{t}/stat") for t in os.listdir(tasks)), reverse=True)
    subprocess.run([anchorfs, "unmount", mnt], env=ENV, check=True)
    daemon.wait()
    return wall, total, system, peak, threads + [0.0, 0.0]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds, repo, binaries = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory(prefix="cold-threads-") as work:
        for _ in range(rounds):
            for anchorfs in binaries:
                load = open("/proc/loadavg").read().split()[0]
                wall, total, system, peak, threads = cold_mount(anchorfs, repo, work)
                print(f"{anchorfs}: load {load} wall {wall:.2f} s, CPU {total:.2f} s (system "
                      f"{system:.2f}), VmHWM {peak:.0f} MB: busiest "
                      f"thread {threads[0]:.2f}, second {threads[1]:.2f}, gap "
                      f"{threads[0] - threads[1]:.2f}, rest {total - threads[0] - threads[1]:.2f}",
                      flush=True)


if __name__ == "__main__":
    main()
