#!/usr/bin/env python3
"""Cold mounts measured by the fresh pages they take: CPU (user, system), faults, peak RSS, pages.

    scripts/bench/fresh_pages.py ROUNDS REPO LABEL=ANCHORFS[@MALLOC_CONF] [LABEL=...]

ROUNDS times, each LABEL in turn (alternated, so the machine's load falls on all alike): a cold
`anchorfs mount -f --threads 2 --view auto` (a fresh cache directory; MALLOC_CONF set when given
after '@', e.g. `new=build/cli/anchorfs@thp:default`), read from /proc at its "mounted" line
(ready) and again once its CPU stood still for 1 s (idle: the cache records written after ready
included): user and system CPU seconds, minor faults, peak RSS (VmHWM). With PERFSTAT=1 the
daemon runs under `perf stat -e kmem:mm_page_alloc` (orders 9 and 0): "fresh" is the memory the
kernel handed it until unmounted (2 MiB huge pages and 4 KiB pages, each zeroed on first touch on
this VM's anonymous memory), which unlike CPU seconds hardly moves with the machine's load.
Then unmounts. Prints each run and the medians per label.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TICK = os.sysconf("SC_CLK_TCK")
HOME = os.environ.get("ANCHORFS_BENCH_HOME", "/tmp/anchorfs-bench-home")


def stat(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK, int(fields[7])


def hwm_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) / 1024
    return float("nan")


def daemon_pid(parent):
    """The mount under `perf stat`: perf's child."""
    while True:
        children = open(f"/proc/{parent}/task/{parent}/children").read().split()
        if children:
            return int(children[0])
        time.sleep(0.01)


def cold_mount(binary, conf, repo, work):
    cache, mnt, log, counts = (os.path.join(work, n) for n in ("cache", "mnt", "log", "pstat"))
    shutil.rmtree(cache, ignore_errors=True)
    os.makedirs(cache)
    os.makedirs(mnt, exist_ok=True)
    os.makedirs(HOME, exist_ok=True)
    env = dict(os.environ, HOME=HOME)
    if conf:
        env["MALLOC_CONF"] = conf
    perf = ["perf", "stat", "-x,", "-o", counts, "-e", "kmem:mm_page_alloc", "--filter",
            "order == 9", "-e", "kmem:mm_page_alloc", "--filter", "order == 0", "--"]
    counting = bool(os.environ.get("PERFSTAT"))
    start = time.monotonic()
    child = subprocess.Popen((perf if counting else []) +
                             [binary, "mount", "-f", "--threads", "2", "--cache-dir", cache,
                              "--view", "auto", repo, mnt],
                             stdout=open(log, "w"), stderr=subprocess.STDOUT, env=env)
    while "mounted" not in open(log).read():
        if child.poll() is not None:
            sys.exit("mount failed:\n" + open(log).read())
        time.sleep(0.01)
    wall = time.monotonic() - start
    pid = daemon_pid(child.pid) if counting else child.pid
    run = {"wall": wall, "hwm": hwm_mb(pid)}
    run["user"], run["sys"], run["faults"] = stat(pid)
    last = run["user"] + run["sys"]
    while True:
        time.sleep(1.0)
        user, system, faults = stat(pid)
        if user + system == last:
            break
        last = user + system
    run.update(idle_user=user, idle_sys=system, idle_faults=faults, idle_hwm=hwm_mb(pid))
    subprocess.run([binary, "unmount", mnt], env=env, check=True)
    child.wait()
    run["fresh"] = float("nan")
    if counting:
        pages = [int(line.split(",")[0]) for line in open(counts) if "mm_page_alloc" in line]
        run["fresh"] = (pages[0] * 2048 + pages[1] * 4) / 1024
    return run


def line(label, run):
    return (f"{label:10s} wall {run['wall']:6.2f} | ready: user {run['user']:6.2f} sys "
            f"{run['sys']:5.2f} faults {run['faults']:7.0f} HWM {run['hwm']:5.0f} MB | idle: user "
            f"{run['idle_user']:6.2f} sys {run['idle_sys']:5.2f} faults {run['idle_faults']:7.0f} "
            f"HWM {run['idle_hwm']:5.0f} MB | fresh {run['fresh']:6.0f} MB")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds, repo, specs = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    runs = {}
    with tempfile.TemporaryDirectory(prefix="fresh-pages-") as work:
        for _ in range(rounds):
            for spec in specs:
                label, rest = spec.split("=", 1)
                binary, _, conf = rest.partition("@")
                load = open("/proc/loadavg").read().split()[0]
                run = cold_mount(binary, conf, repo, work)
                runs.setdefault(label, []).append(run)
                print(f"load {load:5s} " + line(label, run), flush=True)
    print("medians:")
    for label, all_runs in runs.items():
        print("           " + line(label, {k: statistics.median(r[k] for r in all_runs)
                                           for k in all_runs[0]}))


if __name__ == "__main__":
    main()
