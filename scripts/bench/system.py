#!/usr/bin/env python3
"""Process, mount-table and page-cache helpers for the anchorfs benchmark."""

import os
import re
import subprocess
import sys
import time


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class BenchError(Exception):
    pass


def mounted_points():
    points = set()
    with open("/proc/self/mountinfo", encoding="utf-8") as f:
        for line in f:
            raw = line.split()[4]
            points.add(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), raw))
    return points


def is_mounted(path):
    return os.path.realpath(path) in mounted_points()


_warned_drop = [False]


def drop_caches():
    """Empties the page, dentry and inode caches so a 'cold' pass really reads through."""
    subprocess.run(["sync"], check=False)
    try:
        with open("/proc/sys/vm/drop_caches", "w", encoding="ascii") as f:
            f.write("3\n")
    except OSError as exc:
        if not _warned_drop[0]:
            log(f"warning: cannot drop the page cache ({exc}); cold passes are not cold")
            _warned_drop[0] = True


def fuse_holders():
    """pids of processes holding /dev/fuse open (FUSE daemons)."""
    pids = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fd_dir = f"/proc/{entry}/fd"
        try:
            for fd in os.listdir(fd_dir):
                try:
                    if os.readlink(f"{fd_dir}/{fd}") == "/dev/fuse":
                        pids.add(int(entry))
                        break
                except OSError:
                    continue
        except OSError:
            continue
    return pids


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return []


def find_daemon(mnt, before):
    """The daemon serving mnt: a /dev/fuse holder naming mnt in its argv, else the one new holder."""
    holders = fuse_holders()
    real = os.path.realpath(mnt)
    naming = [p for p in holders if any(os.path.realpath(a) == real for a in cmdline(p) if a.startswith("/"))]
    if len(naming) == 1:
        return naming[0]
    new = holders - before
    if len(new) == 1:
        return new.pop()
    return naming[0] if naming else None


def vm_status_mb(pid, field):
    """A memory field of /proc/PID/status ("VmHWM": peak resident, "VmRSS": resident now), MB."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return None


def vm_hwm_mb(pid):
    return vm_status_mb(pid, "VmHWM")


def vm_rss_mb(pid):
    return vm_status_mb(pid, "VmRSS")


def cpu_seconds(pid):
    """User + system CPU time of a process (all its threads) so far."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def pid_alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def tool_version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
        text = (out.stdout or out.stderr).strip().splitlines()
        return text[0] if text else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "not installed"
