#!/usr/bin/env python3
"""The configurations under test (plain directory, bindfs, passthrough_ll, anchorfs views): mount and unmount."""

import os
import signal
import subprocess
import time

from system import (BenchError, find_daemon, fuse_holders, is_mounted, log, pid_alive, vm_hwm_mb,
                    vm_rss_mb)


MOUNT_TIMEOUT = 900


class Mount:
    """One mounted configuration; unmounts itself (and reaps its daemon) on close."""

    def __init__(self, config, mnt, pid, seconds):
        self.config = config
        self.mnt = mnt
        self.pid = pid
        self.seconds = seconds

    def rss_mb(self):
        """Peak resident memory of the daemon so far (analysis included)."""
        return vm_hwm_mb(self.pid) if self.pid else None

    def resident_mb(self):
        """Resident memory of the daemon now."""
        return vm_rss_mb(self.pid) if self.pid else None

    def close(self):
        if not self.config.is_fuse or not is_mounted(self.mnt):
            return
        self.config.unmount(self.mnt)
        deadline = time.time() + 15
        while self.pid and pid_alive(self.pid) and time.time() < deadline:
            time.sleep(0.02)
        if is_mounted(self.mnt):
            subprocess.run(["fusermount3", "-u", "-z", self.mnt], check=False, capture_output=True)
        if self.pid and pid_alive(self.pid):
            os.kill(self.pid, signal.SIGTERM)


class Config:
    name = "?"
    is_fuse = True

    def __init__(self, tools):
        self.tools = tools

    def command(self, src, mnt, mode):
        raise NotImplementedError

    def unmount(self, mnt):
        subprocess.run(["fusermount3", "-u", mnt], check=False, capture_output=True)

    def mount(self, src, mnt, mode="cold"):
        """Mounts src on mnt and returns a Mount once the mount answers. mode: cold|populate|warm."""
        os.makedirs(mnt, exist_ok=True)
        if is_mounted(mnt):
            raise BenchError(f"{mnt} is already mounted")
        before = fuse_holders()
        cmd = self.command(src, mnt, mode)
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=MOUNT_TIMEOUT)
        if proc.returncode != 0:
            raise BenchError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[-400:]}")
        while not is_mounted(mnt):
            if time.perf_counter() - start > MOUNT_TIMEOUT:
                raise BenchError(f"{' '.join(cmd)}: mount never appeared")
            time.sleep(0.005)
        os.listdir(mnt)  # ready means it answers, not just that it is in the mount table
        seconds = time.perf_counter() - start
        pid = find_daemon(mnt, before)
        if pid is None:
            log(f"warning: no daemon pid found for {mnt}")
        return Mount(self, mnt, pid, seconds)


class Plain(Config):
    name = "plain"
    is_fuse = False

    def mount(self, src, mnt, mode="cold"):
        return Mount(self, src, None, None)


class Bindfs(Config):
    name = "bindfs"

    def command(self, src, mnt, mode):
        return ["bindfs", "-r", src, mnt]


class PassthroughLL(Config):
    name = "passthrough_ll"

    def command(self, src, mnt, mode):
        return [self.tools["passthrough_ll"], "-o", f"source={src},cache=always,ro", mnt]


class Anchorfs(Config):
    def __init__(self, tools, view):
        super().__init__(tools)
        self.view = view
        self.name = f"anchorfs-{view}"
        self.cache_dir = None

    def command(self, src, mnt, mode):
        cmd = [self.tools["anchorfs"], "mount", src, mnt, "--view", self.view]
        if mode == "cold":
            cmd.append("--no-cache")
        else:
            cmd += ["--cache-dir", self.cache_dir]
        return cmd

    def unmount(self, mnt):
        proc = subprocess.run([self.tools["anchorfs"], "unmount", mnt], check=False, capture_output=True)
        if proc.returncode != 0:
            super().unmount(mnt)


def make_config(name, tools):
    if name.startswith("anchorfs-"):
        return Anchorfs(tools, name.split("-", 1)[1])
    return {"plain": Plain, "bindfs": Bindfs, "passthrough_ll": PassthroughLL}[name](tools)
