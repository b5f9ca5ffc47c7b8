#!/usr/bin/env python3
"""Warm remount and one-file refresh of one repository, measured on the daemon itself.

    scripts/bench/warm_refresh.py warm    ANCHORFS CACHE REPO MNT [REPS]
    scripts/bench/warm_refresh.py refresh ANCHORFS CACHE REPO MNT FILE.c|FILE.py [REPS] [--pause S]
    scripts/bench/warm_refresh.py touch   ANCHORFS CACHE REPO MNT FILE [REPS]
    scripts/bench/warm_refresh.py middle  ANCHORFS CACHE REPO MNT FILE.py NEEDLE [REPS]

warm: `anchorfs mount -f` until its "mounted" line (wall), the daemon's CPU seconds (user+system of
every thread, /proc) at that moment and of the mount's own thread (the critical path: the view
record's copy runs beside it while it scans) and once it has been idle for 1 s (the refresher's start-up
work included), its peak and settled RSS; then unmount. Mount once first with the binary to
measure so the cache holds its graph and view record (the build id is part of their keys).
Each mount's summary line follows ("graph from cache, N read": sources the survey read).
touch: REPS times FILE's stat changed, its bytes kept (`touch`: what a build, an editor's save
of unchanged bytes or an edit and its revert leave), then two warm remounts measured as above:
the first knows the other files by the survey memo kept in the cache, the second by stat alias.
refresh: one watching mount, then REPS times a helper function and a caller of it (C: a static
helper; Python: two module-level functions, as issue 29 measures on sympy's core/numbers.py; names unique
per run, so no earlier tree's cached view is hit) appended to FILE (a path inside REPO: work on a
copy, e.g. `cp -al` with FILE itself copied): seconds until the mount shows the new bytes and the
new tag block, daemon CPU (and its system part: page faults, fresh pages zeroed) and minor page
faults until then, CPU until idle, RSS and how much of it the kernel may take back (LazyFree).
`--pause S`: S seconds of quiet before each edit, the first included (refreshes spaced as an
agent's edits are: the allocator has returned what the last one freed by then; the records are
written after 10 s of quiet, so S > 11 also leaves them out of the next refresh); with
ANCHORFS_BENCH_GAP=S and no --pause, S seconds of quiet after each refresh settles before the next
edit. FILE is restored at the end. A mount that
started from a cached view makes that view's analysis again once it serves (the priming: in its
"once idle" CPU), so its first refresh starts from it like the later ones.
A refresh's graph and view records are written once the tree has been quiet for 10 s or at
unmount, so "until idle" no longer includes them.
middle: one watching mount, then REPS times a statement `probe_N = igcd(N, 2)` inserted in FILE
after the first line containing NEEDLE (a function's `def` line: an edit inside old code), seconds
until the mount serves the new bytes and daemon CPU until idle. FILE is restored at the end.
Wall times on a shared machine are not the product's: compare CPU.
"""
import os
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
ENV = dict(os.environ, HOME=os.environ.get("ANCHORFS_BENCH_HOME", "/tmp/anchorfs-bench-home"))
# refresh: seconds of quiet after a refresh settles before the next edit (ANCHORFS_BENCH_GAP; 0 by
# default: back to back). An agent's edits come seconds to minutes apart, by when the allocator
# has returned the last refresh's freed pages.
GAP = float(os.environ.get("ANCHORFS_BENCH_GAP", "0"))


def cpu(pid, task=None):
    path = f"/proc/{pid}/task/{task}/stat" if task else f"/proc/{pid}/stat"
    fields = open(path).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def minflt(pid):
    return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[7])


def system_cpu(pid):
    """The daemon's CPU seconds in the kernel (page faults and the zeroing of fresh pages)."""
    return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[12]) / TICK


def idle(pid):
    last = cpu(pid)
    while True:
        time.sleep(1.0)
        now = cpu(pid)
        if now == last:
            return now
        last = now


def memory_mb(pid, key):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key):
            return int(line.split()[1]) / 1024
    return float("nan")


def lazyfree_mb(pid):
    """Pages the daemon let the kernel take back (MADV_FREE) that RSS still counts."""
    for line in open(f"/proc/{pid}/smaps_rollup"):
        if line.startswith("LazyFree:"):
            return int(line.split()[1]) / 1024
    return 0.0


def mount(anchorfs, cache, repo, mnt, log, view="topo"):
    """A foreground mount on 2 threads, returned at its "mounted" line: (daemon, seconds)."""
    os.makedirs(ENV["HOME"], exist_ok=True)
    start = time.monotonic()
    daemon = subprocess.Popen([anchorfs, "mount", "-f", "--threads", "2", "--cache-dir", cache,
                               "--view", view, repo, mnt],
                              stdout=open(log, "w"), stderr=subprocess.STDOUT, env=ENV)
    while "mounted" not in open(log).read():
        if daemon.poll() is not None:
            sys.exit("mount failed:\n" + open(log).read())
        time.sleep(0.01)
    return daemon, time.monotonic() - start


def unmount(anchorfs, mnt, daemon):
    subprocess.run([anchorfs, "unmount", mnt], env=ENV, check=True)
    daemon.wait()


def remount(anchorfs, cache, repo, mnt, label):
    daemon, wall = mount(anchorfs, cache, repo, mnt, f"{mnt}.log")
    ready, main_thread = cpu(daemon.pid), cpu(daemon.pid, daemon.pid)
    settled = idle(daemon.pid)
    peak, rss = memory_mb(daemon.pid, "VmHWM"), memory_mb(daemon.pid, "VmRSS")
    unmount(anchorfs, mnt, daemon)
    summary = next((line.strip() for line in open(f"{mnt}.log") if "source files" in line), "")
    print(f"{label}: ready {wall:.2f} s wall; daemon CPU {ready:.2f} s at ready "
          f"({main_thread:.2f} s on the mount's own thread), {settled:.2f} s once idle; "
          f"RSS peak {peak:.0f} MB, settled {rss:.0f} MB\n  {summary}", flush=True)


def warm(anchorfs, cache, repo, mnt, reps=3):
    for rep in range(int(reps)):
        remount(anchorfs, cache, repo, mnt, f"warm {rep}")


def touch(anchorfs, cache, repo, mnt, rel, reps=3):
    """Each rep: FILE's stat changed (bytes kept), 3 s for it to age, then two remounts."""
    path = os.path.join(repo, rel)
    for rep in range(int(reps)):
        os.utime(path)
        time.sleep(3)
        remount(anchorfs, cache, repo, mnt, f"touch {rep}, first remount")
        remount(anchorfs, cache, repo, mnt, f"touch {rep}, second remount")


def probe_source(rel, name):
    """The appended source and the line that shows it arrived, in FILE's language."""
    if rel.endswith(".py"):
        return (f"\n\ndef {name}_helper():\n    return 1\n\n\n"
                f"def {name}():\n    return {name}_helper()\n", f"def {name}():")
    return (f"\nstatic int {name}_helper(void)\n{{\n\treturn 1;\n}}\n\n"
            f"int {name}(void)\n{{\n\treturn {name}_helper();\n}}\n", f"int {name}(void)")


def refresh(anchorfs, cache, repo, mnt, rel, reps=3, pause=0.0):
    daemon, _ = mount(anchorfs, cache, repo, mnt, f"{mnt}.log")
    print(f"mounted; daemon CPU {idle(daemon.pid):.2f} s once idle; RSS "
          f"{memory_mb(daemon.pid, 'VmRSS'):.0f} MB ({lazyfree_mb(daemon.pid):.0f} MB of it "
          f"LazyFree)", flush=True)
    path = os.path.join(repo, rel)
    original = open(path, "rb").read()
    try:
        for rep in range(int(reps)):
            if pause > 0:
                time.sleep(pause)
            elif rep > 0:
                time.sleep(GAP)
            name = f"anchorfs_probe_{os.getpid()}_{rep}"
            probe, signature = probe_source(rel, name)
            before, start, faults = cpu(daemon.pid), time.monotonic(), minflt(daemon.pid)
            system_before = system_cpu(daemon.pid)
            with open(path, "ab") as f:
                f.write(probe.encode())
            want_bytes, want_tags = signature.encode(), f"function: {rel}:{name}".encode()
            seen_bytes = None
            while True:
                try:
                    data = open(os.path.join(mnt, rel), "rb").read()
                except OSError:  # EIO while the changed file awaits its refresh
                    data = b""
                if seen_bytes is None and want_bytes in data:
                    seen_bytes = time.monotonic() - start
                if want_tags in data:
                    break
                time.sleep(0.02)
            wall, shown = time.monotonic() - start, cpu(daemon.pid) - before
            shown_faults = minflt(daemon.pid) - faults
            shown_system = system_cpu(daemon.pid) - system_before
            settled = idle(daemon.pid) - before
            print(f"refresh {rep}: bytes {seen_bytes:.2f} s, tags {wall:.2f} s wall; daemon CPU "
                  f"{shown:.2f} s until shown (system {shown_system:.2f} s), {settled:.2f} s "
                  f"until idle; minor faults {shown_faults} until shown; RSS "
                  f"{memory_mb(daemon.pid, 'VmRSS'):.0f} MB ({lazyfree_mb(daemon.pid):.0f} MB "
                  f"of it LazyFree)",
                  flush=True)
    finally:
        with open(path, "wb") as f:
            f.write(original)
        time.sleep(2)
        unmount(anchorfs, mnt, daemon)


def middle(anchorfs, cache, repo, mnt, rel, needle, reps=3):
    daemon, _ = mount(anchorfs, cache, repo, mnt, f"{mnt}.log")
    print(f"mounted; daemon CPU {idle(daemon.pid):.2f} s once idle", flush=True)
    path = os.path.join(repo, rel)
    original = open(path, "rb").read()
    at = original.index(b"\n", original.index(needle.encode())) + 1
    try:
        for rep in range(int(reps)):
            line = f"    probe_{rep}_{os.getpid()} = igcd({rep}, 2)\n".encode()
            before, start = cpu(daemon.pid), time.monotonic()
            with open(path, "wb") as f:
                f.write(original[:at] + line + original[at:])
            while True:
                try:
                    if line.strip() in open(os.path.join(mnt, rel), "rb").read():
                        break
                except OSError:  # EIO while the changed file awaits its refresh
                    pass
                time.sleep(0.02)
            wall = time.monotonic() - start
            settled = idle(daemon.pid) - before
            print(f"edit {rep}: bytes {wall:.2f} s wall; daemon CPU {settled:.2f} s until idle",
                  flush=True)
    finally:
        with open(path, "wb") as f:
            f.write(original)
        time.sleep(2)
        unmount(anchorfs, mnt, daemon)


if __name__ == "__main__":
    pause = 0.0
    if "--pause" in sys.argv:
        at = sys.argv.index("--pause")
        pause = float(sys.argv[at + 1])
        del sys.argv[at:at + 2]
        if sys.argv[1] != "refresh":
            sys.exit("--pause is refresh's option")
    if len(sys.argv) < 6 or sys.argv[1] not in ("warm", "refresh", "touch", "middle"):
        sys.exit(__doc__)
    if sys.argv[1] == "refresh":
        refresh(*sys.argv[2:], pause=pause)
    else:
        {"warm": warm, "touch": touch, "middle": middle}[sys.argv[1]](*sys.argv[2:])
