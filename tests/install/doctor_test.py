#!/usr/bin/env python3
"""`anchorfs doctor`: each check passes on a working setup and fails, with its fix, on a real
broken one made in a private mount namespace (no /dev/fuse, fusermount3 without its setuid bit,
no user_allow_other, a low inotify limit, an unwritable cache, a Redis tier that is down, a dead
mount); `mount` points to doctor when it fails for such a reason.
Usage: doctor_test.py ANCHORFS_BIN SAMPLE_PROJECT   (root)"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

SAMPLE = sys.argv.pop(2)
ANCHORFS = sys.argv.pop(1)


def doctor(*args, prelude="", user=None):
    """Runs doctor in a private mount namespace after the shell commands `prelude`."""
    command = '"$0" doctor "$@"'
    if user is not None:
        command = f"setpriv --reuid {user} --regid {user} --clear-groups " + command
    return subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-ec", prelude + "\nexec " + command,
         ANCHORFS, *args], capture_output=True, text=True)


def cmdline(pid):
    """The arguments of process `pid` (none when it is gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().split(b"\0")
    except OSError:
        return []


def lines_of(result, subject):
    """The finding lines about `subject`: its status line and, when failed, its fix."""
    lines = result.stdout.splitlines()
    for i, line in enumerate(lines):
        if line[6:].startswith(subject + ":"):
            return line, (lines[i + 1] if line.startswith("FAIL") else "")
    raise AssertionError(f"no finding for {subject}:\n{result.stdout}{result.stderr}")


class Doctor(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="anchorfs-doctor-")
        os.chmod(self.dir, 0o755)
        self.repo = os.path.join(self.dir, "repo")
        shutil.copytree(SAMPLE, self.repo)
        self.mnt = os.path.join(self.dir, "mnt")
        os.mkdir(self.mnt)
        self.cache = os.path.join(self.dir, "cache")
        self.common = ["--repo", self.repo, "--cache-dir", self.cache, "--cache-max-size", "1M"]

    def tearDown(self):
        subprocess.run([ANCHORFS, "unmount", self.mnt], capture_output=True)
        shutil.rmtree(self.dir)

    def assertFails(self, result, subject, detail, fix):
        status, fix_line = lines_of(result, subject)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertTrue(status.startswith("FAIL  "), status)
        self.assertIn(detail, status)
        self.assertTrue(fix_line.startswith("      fix: "), fix_line)
        self.assertIn(fix, fix_line)
        self.assertIn("checks failed", result.stdout.splitlines()[-1])

    def test_all_pass_on_a_working_setup(self):
        result = doctor(self.mnt, *self.common)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertTrue(result.stdout.endswith("anchorfs doctor: all 7 checks passed\n"))
        self.assertIn("ok    /dev/fuse: character device 10:229, opens read-write", result.stdout)
        self.assertIn(f"ok    mountpoint: {self.mnt}: an empty directory", result.stdout)
        dirs = sum(1 for _ in os.walk(self.repo))
        self.assertIn(f"ok    inotify: {dirs} directories to watch", result.stdout)

    def test_missing_fuse_device(self):
        result = doctor(self.mnt, *self.common, prelude="mount -t tmpfs tmpfs /dev")
        self.assertFails(result, "/dev/fuse", "missing", "modprobe fuse")

    def test_normal_user_needs_setuid_fusermount_and_user_allow_other(self):
        os.chmod(self.mnt, 0o777)
        prelude = (f"rm -f {self.dir}/fuse && mknod {self.dir}/fuse c 10 229 && chmod 666 {self.dir}/fuse && "
                   f"mount --bind {self.dir}/fuse /dev/fuse\n"
                   f"cp /usr/bin/fusermount3 {self.dir}/fusermount3 && chmod 755 {self.dir}/fusermount3 && "
                   f"mount --bind {self.dir}/fusermount3 /usr/bin/fusermount3\n"
                   f": > {self.dir}/fuse.conf && mount --bind {self.dir}/fuse.conf /etc/fuse.conf")
        common = ["--repo", self.repo, "--no-cache"]
        result = doctor(self.mnt, *common, "-o", "allow_other", prelude=prelude, user=65534)
        self.assertFails(result, "fusermount3", "/usr/bin/fusermount3 is not setuid root",
                         "chown root /usr/bin/fusermount3 && chmod u+s /usr/bin/fusermount3")
        self.assertFails(result, "allow_other", "needs user_allow_other",
                         "echo user_allow_other >> /etc/fuse.conf")
        self.assertTrue(lines_of(result, "/dev/fuse")[0].startswith("ok"))
        # Fixed as the fixes say: both pass.
        fixed = prelude + (f"\nchmod u+s {self.dir}/fusermount3\n"
                           f"echo user_allow_other > {self.dir}/fuse.conf")
        result = doctor(self.mnt, *common, "-o", "allow_other", prelude=fixed, user=65534)
        self.assertEqual(result.returncode, 0, result.stdout)

    def test_inotify_limit_below_the_directory_count(self):
        limit = os.path.join(self.dir, "max_user_watches")
        with open(limit, "w") as f:
            f.write("3\n")
        result = doctor(self.mnt, *self.common,
                        prelude=f"mount --bind {limit} /proc/sys/fs/inotify/max_user_watches")
        self.assertFails(result, "inotify", "inotify watches are free",
                         "sysctl fs.inotify.max_user_watches=")

    def test_unusable_cache(self):
        not_a_dir = os.path.join(self.dir, "file")
        open(not_a_dir, "w").close()
        result = doctor(self.mnt, "--repo", self.repo, "--cache-dir", not_a_dir)
        self.assertFails(result, "cache", "not a directory", "choose another --cache-dir")
        os.mkdir(self.cache)
        result = doctor(self.mnt, *self.common, prelude=f"mount --bind -o ro {self.cache} {self.cache}")
        self.assertFails(result, "cache", "cannot write in", "make it writable")
        result = doctor(self.mnt, "--repo", self.repo, "--cache-dir", os.path.join(self.repo, "c"))
        self.assertFails(result, "cache", "inside the repository", "outside it")

    def test_remote_cache(self):
        with socket.socket() as s:  # a port nothing listens on
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        url = f"redis://127.0.0.1:{port}"
        result = doctor(self.mnt, *self.common, "--remote-cache", url)
        self.assertFails(result, "remote cache", "configured but not used: no farm key",
                         "--remote-cache-key-file FILE")
        key = os.path.join(self.dir, "farm.key")
        with open(os.open(key, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write("0123456789abcdef0123456789abcdef\n")
        keyed = [*self.common, "--remote-cache", url, "--remote-cache-key-file", key]
        result = doctor(self.mnt, *keyed)
        self.assertFails(result, "remote cache", f"127.0.0.1:{port}", "start the Redis server")
        server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                   "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 20
            while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True,
                                 text=True).stdout.strip() != "PONG":
                self.assertLess(time.monotonic(), deadline, "redis-server did not start")
            result = doctor(self.mnt, *keyed)
            self.assertEqual(result.returncode, 0, result.stdout)
            self.assertIn(f"ok    remote cache: redis://127.0.0.1:{port}/0: answers", result.stdout)
        finally:
            server.terminate()
            server.wait()

    def test_live_and_dead_mounts(self):
        subprocess.run([ANCHORFS, "mount", self.repo, self.mnt, "--no-cache"], check=True,
                       capture_output=True)
        result = doctor(self.mnt, "--no-cache")
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertIn(f"anchorfs serves {self.repo} here", result.stdout)
        self.assertIn(f"ok    inotify: {sum(1 for _ in os.walk(self.repo))} directories", result.stdout)
        daemon = [pid for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
                  if self.mnt.encode() in cmdline(pid)]
        self.assertEqual(len(daemon), 1)
        os.kill(daemon[0], signal.SIGKILL)
        while cmdline(daemon[0]):  # until it is gone (a zombie has no arguments)
            os.sched_yield()
        result = doctor(self.mnt, "--no-cache")
        self.assertFails(result, "mountpoint", "a dead mount", f"anchorfs unmount {self.mnt}")
        mount = subprocess.run([ANCHORFS, "mount", self.repo, self.mnt], capture_output=True, text=True)
        self.assertEqual(mount.returncode, 1)
        self.assertEqual(mount.stderr.splitlines()[-1],
                         f"anchorfs: `anchorfs doctor {self.mnt}` checks everything mounting "
                         "needs, with fixes")

    def test_mount_points_to_doctor_without_fuse_device(self):
        result = subprocess.run(
            ["unshare", "--mount", "sh", "-c", 'mount -t tmpfs tmpfs /dev && exec "$0" mount "$1" "$2"',
             ANCHORFS, self.repo, self.mnt], capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("anchorfs: /dev/fuse: missing", result.stderr)
        self.assertIn(f"`anchorfs doctor {self.mnt}`", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
