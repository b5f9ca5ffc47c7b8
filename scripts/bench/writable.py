#!/usr/bin/env python3
"""Writable mounts (issue 23): the daemon's memory while a large file is written through the
mount, and a `git checkout` that changes many files, in the mount vs in the checkout.

    writable.py --anchorfs BIN --work DIR [--write-mib 1024] [--files 300] [--reps 3]

Memory: a new file of WRITE_MIB MiB is written with dd (1 MiB blocks) into a writable mount of
a small repository; the daemon's VmRSS, RssAnon and VmHWM (peak) are read from /proc before and
after. Branch switch: a repository of FILES+50 Python files and a branch that changes FILES of
them; `git checkout other` then `git checkout main`, timed in the checkout and in a writable
mount of it (a fresh clone each), medians of REPS, interleaved, with the daemon's CPU (user +
system, /proc/PID/stat). The same switch through bindfs and libfuse's passthrough_ll example
(built from libfuse3-dev's examples into WORK), both writable, shows what any FUSE filesystem
costs for it: passthrough_ll with `-o cache=always` (long caching, as anchorfs), with
`-o cache=always,writeback` (FUSE_CAP_WRITEBACK_CACHE), and a copy of it whose open and flush
answer ENOSYS (`ptll-noopen`: the kernel then sends no OPEN, FLUSH or RELEASE at all; reads and
writes open the file each time), the fewest round trips libfuse 3.14 allows. A column is left
out, with a message, when its program is missing.

--fifo runs git and every daemon SCHED_FIFO (root or CAP_SYS_NICE): on a machine busy with other
work the switch then waits for no one, so checkout and mounts compare as on a quiet machine
(their absolute times still depend on what shares the caches). --pin CPU runs them all on that
CPU: a FUSE round trip is then a context switch, not a wake-up on another CPU (docs/benchmarks.md,
session 8). Prints Markdown tables."""

import argparse
import glob
import gzip
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


def compile_fuse_program(source, binary, column):
    """SOURCE built against libfuse3 into BINARY, or None (the COLUMN is then left out)."""
    flags = subprocess.run(["pkg-config", "fuse3", "--cflags", "--libs"], capture_output=True,
                           text=True).stdout.split()
    if subprocess.run(["gcc", "-O2", "-w", "-o", binary, source, *flags]).returncode != 0:
        print(f"writable: {column} did not build: no {column} column", file=sys.stderr)
        return None
    return binary


def build_passthrough_ll(work):
    """libfuse's passthrough_ll example compiled into WORK (never committed), or None."""
    examples = "/usr/share/doc/libfuse3-dev/examples"
    source = os.path.join(work, "passthrough_ll.c")
    if os.path.exists(f"{examples}/passthrough_ll.c"):
        shutil.copy(f"{examples}/passthrough_ll.c", source)
    elif os.path.exists(f"{examples}/passthrough_ll.c.gz"):
        with gzip.open(f"{examples}/passthrough_ll.c.gz") as packed, open(source, "wb") as out:
            out.write(packed.read())
    else:
        print(f"writable: {examples}/passthrough_ll.c not found (libfuse3-dev): no passthrough_ll "
              "column", file=sys.stderr)
        return None
    for header in glob.glob(f"{examples}/*.h"):
        shutil.copy(header, work)
    return compile_fuse_program(source, os.path.join(work, "passthrough_ll"), "passthrough_ll")


# passthrough_ll.c (libfuse 3.14) edited so that open and flush answer ENOSYS (the kernel stops
# sending OPEN/RELEASE and FLUSH: FUSE_CAP_NO_OPEN_SUPPORT, fc->no_flush) and reads and writes
# without a handle (fh 0) open the file for the one request.
NO_OPEN_EDITS = [
    ('\tsprintf(buf, "/proc/self/fd/%i", lo_fd(req, ino));\n\tfd = open(buf, fi->flags & ~O_NOFOLLOW);',
     '\treturn (void) fuse_reply_err(req, ENOSYS);\n'
     '\tsprintf(buf, "/proc/self/fd/%i", lo_fd(req, ino));\n\tfd = open(buf, fi->flags & ~O_NOFOLLOW);'),
    ('\tres = close(dup(fi->fh));', '\treturn (void) fuse_reply_err(req, ENOSYS);\n\tres = close(dup(fi->fh));'),
    ('\tbuf.buf[0].fd = fi->fh;', '\tbuf.buf[0].fd = fi->fh ? (int)fi->fh : once_fd(req, ino, O_RDONLY);'),
    ('\tfuse_reply_data(req, &buf, FUSE_BUF_SPLICE_MOVE);',
     '\tfuse_reply_data(req, &buf, FUSE_BUF_SPLICE_MOVE);\n\tif (!fi->fh) close(buf.buf[0].fd);'),
    ('\tout_buf.buf[0].fd = fi->fh;', '\tout_buf.buf[0].fd = fi->fh ? (int)fi->fh : once_fd(req, ino, O_WRONLY);'),
    ('\tres = fuse_buf_copy(&out_buf, in_buf, 0);',
     '\tres = fuse_buf_copy(&out_buf, in_buf, 0);\n\tif (!fi->fh) close(out_buf.buf[0].fd);'),
    ('static void lo_release(', 'static int once_fd(fuse_req_t req, fuse_ino_t ino, int flags)\n{\n'
     '\tchar path[64];\n\tsprintf(path, "/proc/self/fd/%i", lo_fd(req, ino));\n'
     '\treturn open(path, flags);\n}\n\nstatic void lo_release('),
]


def build_passthrough_no_open(work):
    """passthrough_ll edited by NO_OPEN_EDITS, built into WORK, or None."""
    with open(os.path.join(work, "passthrough_ll.c")) as f:
        text = f.read()
    for old, new in NO_OPEN_EDITS:
        if text.count(old) != 1:
            print("writable: passthrough_ll.c is not libfuse 3.14's: no ptll-noopen column",
                  file=sys.stderr)
            return None
        text = text.replace(old, new)
    source = os.path.join(work, "passthrough_ll_noopen.c")
    with open(source, "w") as f:
        f.write(text)
    return compile_fuse_program(source, os.path.join(work, "passthrough_ll_noopen"), "ptll-noopen")


def floor_mounts(work):
    """name -> (mount command given SRC and MNT) for the FUSE floors found on this machine."""
    mounts = {}
    if shutil.which("bindfs"):
        mounts["bindfs"] = lambda src, mnt: ["bindfs", src, mnt]
    else:
        print("writable: bindfs not installed: no bindfs column", file=sys.stderr)
    passthrough = build_passthrough_ll(work)
    if passthrough:
        mounts["passthrough_ll"] = lambda src, mnt: [passthrough, "-o",
                                                     f"source={src},cache=always", mnt]
        mounts["ptll-writeback"] = lambda src, mnt: [passthrough, "-o",
                                                     f"source={src},cache=always,writeback", mnt]
        no_open = build_passthrough_no_open(work)
        if no_open:
            mounts["ptll-noopen"] = lambda src, mnt: [no_open, "-o",
                                                      f"source={src},cache=always", mnt]
    return mounts


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


def process_of(mnt):
    """The pid of the daemon serving `mnt` (the process with `mnt` among its arguments), or None."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if os.fsencode(mnt) in args:
            return int(pid)
    return None


def cpu_seconds(pid):
    """User plus system CPU of process `pid` so far (all its threads)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def switch_times(repo_template, work, mount_command, unmount_mount):
    """The two checkouts' seconds in a fresh clone, in place (mount_command None) or through a
    mount made by mount_command(repo, mnt) and unmounted by unmount_mount(mnt), and the daemon's
    CPU seconds for each (None in place)."""
    repo = os.path.join(work, "switch-repo")
    shutil.rmtree(repo, ignore_errors=True)
    run(["git", "clone", "-q", repo_template, repo])
    run(["git", "branch", "-q", "other", "origin/other"], repo)
    where = repo
    mnt = os.path.join(work, "switch-mnt")
    if mount_command:
        os.makedirs(mnt, exist_ok=True)
        run(mount_command(repo, mnt))
        where = mnt
    try:
        daemon = process_of(mnt) if mount_command else None
        times, cpu = [], []
        for branch in ("other", "main"):
            daemon_start = cpu_seconds(daemon) if daemon else None
            start = time.perf_counter()
            run(["git", "checkout", "-q", branch], where)
            times.append(time.perf_counter() - start)
            cpu.append(cpu_seconds(daemon) - daemon_start if daemon else None)
        return times, cpu
    finally:
        if mount_command:
            unmount_mount(mnt)


def fusermount_unmount(mnt):
    subprocess.run(["fusermount3", "-u", mnt], capture_output=True)
    if os.path.ismount(mnt):
        subprocess.run(["fusermount", "-u", mnt], capture_output=True)


def switch_table(args):
    template = os.path.join(args.work, "switch-template")
    python_repo(template, args.files)
    columns = {"checkout": (None, None),
               "writable mount": (lambda src, mnt: [args.anchorfs, "mount", src, mnt, "--writable",
                                                    "--view", "topo"],
                                  lambda mnt: unmount(args.anchorfs, mnt))}
    for name, command in floor_mounts(args.work).items():
        columns[name] = (command, fusermount_unmount)
    results = {name: [[], []] for name in columns}
    daemon_cpu = {name: [[], []] for name in columns}
    for _ in range(args.reps):
        for name, (command, unmount_mount) in columns.items():
            times, cpu = switch_times(template, args.work, command, unmount_mount)
            for k, seconds in enumerate(times):
                results[name][k].append(seconds)
                if cpu[k] is not None:
                    daemon_cpu[name][k].append(cpu[k])
    print(f"\n`git checkout` changing {args.files} files ({args.files + 50} in the repository), "
          f"median of {args.reps}, and the ratio to the checkout:\n")
    print("| command | " + " | ".join(columns) + " |")
    print("| --- |" + " ---: |" * len(columns))
    for k, label in enumerate(("git checkout other", "git checkout main")):
        plain = statistics.median(results["checkout"][k])
        cells = [f"{plain:.2f} s"]
        for name in list(columns)[1:]:
            seconds = statistics.median(results[name][k])
            cells.append(f"{seconds:.2f} s ({seconds / plain:.1f}x)")
        print(f"| `{label}` | " + " | ".join(cells) + " |")
    for k, label in enumerate(("git checkout other", "git checkout main")):
        cells = ["—"]
        for name in list(columns)[1:]:
            cpu = daemon_cpu[name][k]
            cells.append(f"{statistics.median(cpu):.2f} s" if cpu else "—")
        print(f"| `{label}`, the daemon's CPU | " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchorfs", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--write-mib", type=int, default=1024)
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--fifo", action="store_true",
                        help="run git and the daemons SCHED_FIFO (a busy machine)")
    parser.add_argument("--pin", type=int, metavar="CPU",
                        help="run git and the daemons on CPU alone: round trips stay on one CPU")
    args = parser.parse_args()
    if args.fifo:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(20))
    if args.pin is not None:
        os.sched_setaffinity(0, {args.pin})
    args.anchorfs = os.path.abspath(args.anchorfs)
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    memory_table(args)
    switch_table(args)


if __name__ == "__main__":
    main()
