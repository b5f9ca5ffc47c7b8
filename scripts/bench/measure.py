#!/usr/bin/env python3
"""Benchmark measurements: every configuration on one corpus, the scaling curve, live refresh, profiles."""

import ast
import json
import os
import re
import shutil
import subprocess
import time

from corpora import size_label, synthetic
from filesystems import MOUNT_TIMEOUT, Anchorfs
from system import BenchError, cpu_seconds, drop_caches, is_mounted, log
from workloads import (cat_pass, corpus_lines, grep_pass, median, rand_pass, rg_pass, tree_census,
                       warm_source, write_listing)


SERIES_BUDGET = 60.0  # seconds of mounting after which repeated mount timings stop


SCALING_BUDGET = 180.0  # a scaling mount slower than this ends the curve (larger sizes are skipped)


def anchorfs_stats(tools, src, view):
    """`anchorfs stats REPO --json --view VIEW` as a dict (None when the command fails)."""
    try:
        proc = subprocess.run([tools["anchorfs"], "stats", src, "--json", "--view", view],
                              capture_output=True, text=True, timeout=MOUNT_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        log(f"warning: anchorfs stats failed: {proc.stderr.strip()[-200:]}")
        return None
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        return None


def stats_tag_pct(stats, view):
    """Tag bytes of `view` as a percentage of the source bytes, from the stats JSON."""
    try:
        source = stats["files"]["source_bytes"]
        for cost in stats["views"]:
            if cost.get("requested") == view and source:
                return 100.0 * cost["tag_bytes"] / source
    except (KeyError, TypeError):
        pass
    return None


def measure_config(config, corpus, src, work, args, listing, plain_census):
    """All measurements of one configuration on one corpus; returns a dict of metric -> value."""
    r = {"config": config.name}
    mnt = os.path.join(work, "mnt", f"{corpus}-{config.name}")
    reps = args.reps
    mount_times = []

    if isinstance(config, Anchorfs):
        config.cache_dir = os.path.join(work, "cache", f"{corpus}-{config.view}")
        shutil.rmtree(config.cache_dir, ignore_errors=True)
        os.makedirs(config.cache_dir)

    # Pass 1: timed mount, cold-daemon rg, then every warm workload on the same daemon.
    warm_source(src)
    m = config.mount(src, mnt, "cold")
    try:
        mount_times.append(m.seconds)
        drop_caches()
        r["rg_cold"], r["rg_matches"] = rg_pass(m.mnt)
        files, size, _ = tree_census(m.mnt)
        r["files_seen"] = files
        r["bytes_seen"] = size
        r["tag_pct"] = 100.0 * (size - plain_census[1]) / plain_census[2] if plain_census[2] else None
        rg_pass(m.mnt)
        cpu_before = cpu_seconds(m.pid) if m.pid else None
        r["rg_warm"] = median([rg_pass(m.mnt)[0] for _ in range(reps)])
        if cpu_before is not None:
            r["rg_daemon_ms"] = (cpu_seconds(m.pid) - cpu_before) / reps * 1000
        grep_pass(m.mnt)
        r["grep_warm"] = median([grep_pass(m.mnt)[0] for _ in range(reps)])
        cat_pass(m.mnt)
        r["cat_warm"] = median([cat_pass(m.mnt) for _ in range(reps)])
        r["rand_warm"] = median([rand_pass(m.mnt, listing, args.reads) for _ in range(reps)])
        r["rss_mb"] = m.rss_mb()
        r["idle_rss_mb"] = m.resident_mb()
    finally:
        m.close()

    # Pass 2: a fresh daemon for the cold grep -r (for anchorfs this mount also fills the cache).
    m = config.mount(src, mnt, "populate")
    try:
        drop_caches()
        r["grep_cold"], r["grep_matches"] = grep_pass(m.mnt)
    finally:
        m.close()

    if config.is_fuse:
        timed_mounts(config, src, mnt, "cold", reps - 1, mount_times)
        r["mount_s"] = median(mount_times)
        r["mount_n"] = len(mount_times)
    if isinstance(config, Anchorfs):
        warm = timed_mounts(config, src, mnt, "warm", reps, [])
        r["warm_mount_s"] = median(warm)
        r["warm_mount_n"] = len(warm)
        # The stats command analyses once more: a cross-check worth its time only when analysis is quick.
        if config.view == "topo" and (r.get("mount_s") or 0) < SERIES_BUDGET:
            stats = anchorfs_stats(config.tools, src, config.view)
            if stats:
                r["stats_tag_pct"] = stats_tag_pct(stats, config.view)
                r["auto_choice"] = (stats.get("auto") or {}).get("reason")
    return r


def timed_mounts(config, src, mnt, mode, count, times):
    """Appends up to `count` more mount-ready times to `times`; a series stops once it has used
    SERIES_BUDGET seconds, so a slow analysis cannot stretch the run to hours."""
    for _ in range(count):
        if times and sum(times) > SERIES_BUDGET:
            break
        m = config.mount(src, mnt, mode)
        times.append(m.seconds)
        m.close()
    return times


def measure_corpus(corpus, src, configs, work, args):
    log(f"corpus {corpus}: {src}")
    files, size, py_bytes = tree_census(src)
    info = {"name": corpus, "path": src, "files": files, "bytes": size, "py_bytes": py_bytes,
            "lines": corpus_lines(src)}
    listing = os.path.join(work, f"{corpus}.files")
    write_listing(src, listing)
    rows = []
    failed = False
    for config in configs:
        log(f"  {corpus} / {config.name}")
        try:
            rows.append(measure_config(config, corpus, src, work, args, listing, (files, size, py_bytes)))
        except (BenchError, OSError, subprocess.SubprocessError) as exc:
            log(f"  {config.name} FAILED: {exc}")
            rows.append({"config": config.name, "error": str(exc)})
            failed = True
    if args.profile and any(c.name == "anchorfs-topo" for c in configs):
        try:
            info["profile"] = profile_mount(corpus, src, configs[0].tools, work)
        except (BenchError, OSError, subprocess.SubprocessError) as exc:
            log(f"  profile failed (not counted as a measurement failure): {exc}")
    if args.refresh and any(c.name == "anchorfs-topo" for c in configs):
        try:
            info["refresh"] = measure_refresh(corpus, src, configs[0].tools, work, args.refresh_timeout)
        except (BenchError, OSError, subprocess.SubprocessError) as exc:
            log(f"  refresh FAILED: {exc}")
            info["refresh"] = {"error": str(exc)}
            failed = True
    return info, rows, failed


def wait_for(files, timeout):
    """files: {path in the mount: {name: marker bytes}}. Returns {name: seconds until every file shows
    that marker (None if not within timeout)}, polling reads through the mount."""
    start = time.perf_counter()
    names = {name for markers in files.values() for name in markers}
    seen = {name: None for name in names}
    while True:
        missing = set()
        for path, markers in files.items():
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:
                data = b""
            missing |= {name for name, marker in markers.items() if marker not in data}
        elapsed = time.perf_counter() - start
        for name in names - missing:
            if seen[name] is None:
                seen[name] = elapsed
        if not missing or elapsed > timeout:
            return seen
        time.sleep(0.002)


def top_level_function(path):
    """Name of the first undecorated top-level function in a Python file, or None (undecorated, so
    a call to it resolves plainly whatever the analysis makes of decorators)."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return None
    return next((n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.decorator_list), None)


def add_probe(copy, rel, probe, callee):
    """Appends a function calling `callee` (same file), so the new function has a tag block to show.
    Returns the markers to wait for: its bytes, and its tag line."""
    with open(os.path.join(copy, rel), "a", encoding="utf-8") as f:
        f.write(f"\n\ndef {probe}():\n    return {callee}()\n")
    return {"bytes": f"def {probe}():".encode(), "tags": f"function: {rel}:{probe}".encode()}


def measure_refresh(corpus, src, tools, work, timeout):
    """Live-refresh latency on a git copy of the corpus: a one-file edit, then a branch switch touching
    every 20th Python file; time until the mount shows the new bytes, and until it shows their tags."""
    log(f"  {corpus} / refresh latency (anchorfs-topo, live)")
    copy = os.path.join(work, "refresh", corpus)
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(src, copy, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    git = ["git", "-C", copy, "-c", "user.name=bench", "-c", "user.email=bench@localhost",
           "-c", "commit.gpgsign=false"]
    quiet = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    subprocess.run(git + ["init", "-q", "-b", "main"], **quiet)
    subprocess.run(git + ["add", "-A"], **quiet)
    subprocess.run(git + ["commit", "-q", "-m", "base"], **quiet)
    candidates = []
    for dirpath, dirnames, names in os.walk(copy):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        for n in sorted(names):
            if n.endswith(".py"):
                callee = top_level_function(os.path.join(dirpath, n))
                if callee:
                    candidates.append((os.path.relpath(os.path.join(dirpath, n), copy), callee))
    if len(candidates) < 2:
        raise BenchError("refresh: the corpus has too few files with top-level functions")
    edited = candidates[len(candidates) // 2]
    switched = [c for c in candidates[::20] if c != edited] or [candidates[0]]
    subprocess.run(git + ["checkout", "-q", "-b", "other"], **quiet)
    branch_markers = {rel: add_probe(copy, rel, "_anchorfs_bench_branch_probe", callee) for rel, callee in switched}
    subprocess.run(git + ["commit", "-q", "-a", "-m", "other"], **quiet)
    subprocess.run(git + ["checkout", "-q", "main"], **quiet)

    config = Anchorfs(tools, "topo")
    config.cache_dir = os.path.join(work, "cache", f"refresh-{corpus}")
    mnt = os.path.join(work, "mnt", f"{corpus}-refresh")
    result = {"switch_files": len(switched)}
    m = config.mount(copy, mnt, "populate")
    try:
        os.listdir(m.mnt)
        markers = add_probe(copy, edited[0], "_anchorfs_bench_edit_probe", edited[1])
        seen = wait_for({os.path.join(m.mnt, edited[0]): markers}, timeout)
        result["edit_bytes_s"], result["edit_tags_s"] = seen["bytes"], seen["tags"]
        subprocess.run(git + ["checkout", "-q", "--", edited[0]], **quiet)
        wait_for({os.path.join(m.mnt, edited[0]): {}}, 0)
        start = time.perf_counter()
        subprocess.run(git + ["checkout", "-q", "other"], **quiet)
        offset = time.perf_counter() - start
        seen = wait_for({os.path.join(m.mnt, rel): mk for rel, mk in branch_markers.items()}, timeout)
        result["switch_bytes_s"] = None if seen["bytes"] is None else seen["bytes"] + offset
        result["switch_tags_s"] = None if seen["tags"] is None else seen["tags"] + offset
    finally:
        m.close()
        shutil.rmtree(copy, ignore_errors=True)
    return result


def profile_mount(corpus, src, tools, work):
    """perf profile of one cold `anchorfs mount -f --view topo --no-cache`: top symbols by self time."""
    log(f"  {corpus} / perf profile of a cold mount")
    mnt = os.path.join(work, "mnt", f"{corpus}-profile")
    os.makedirs(mnt, exist_ok=True)
    data = os.path.join(work, f"perf-{corpus}.data")
    perf = subprocess.Popen(["perf", "record", "-q", "-F", "499", "-g", "-o", data, "--", tools["anchorfs"],
                             "mount", src, mnt, "--view", "topo", "--no-cache", "-f"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    start = time.perf_counter()
    try:
        while not is_mounted(mnt):
            if perf.poll() is not None:
                raise BenchError(f"perf record exited {perf.returncode}: {perf.stderr.read().decode()[-300:]}")
            if time.perf_counter() - start > MOUNT_TIMEOUT:
                raise BenchError("profiled mount never appeared")
            time.sleep(0.01)
        os.listdir(mnt)
    finally:
        if is_mounted(mnt):
            Anchorfs(tools, "topo").unmount(mnt)
        try:
            perf.wait(timeout=60)
        except subprocess.TimeoutExpired:
            perf.kill()
            perf.wait()
    out = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--sort", "dso,symbol",
                          "-g", "none", "--percent-limit", "0"], capture_output=True, text=True, timeout=300)
    rows, groups = [], {}
    for line in out.stdout.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*)", line)
        if not m:
            continue
        share, dso, symbol = float(m.group(1)), m.group(2), re.sub(r"(\s+-)+$", "", m.group(3).strip())
        group = profile_group(dso, symbol)
        groups[group] = groups.get(group, 0.0) + share
        if share >= 1.5 and len(rows) < 20:
            rows.append([f"{share:.2f} %", dso, symbol])
    return {"symbols": rows, "groups": sorted(groups.items(), key=lambda kv: -kv[1])}


PROFILE_GROUPS = [  # (label, dso substring, symbol substring); first match wins
    ("parsing (tree-sitter)", "tree-sitter", ""),
    ("parsing (tree-sitter)", "anchorfs", "ts_"),  # the grammar's lexer and scanner are linked in
    ("parsing (tree-sitter)", "anchorfs", "tree_sitter_"),
    ("kernel", "[kernel", ""),
    ("analysis", "", "anchorfs::analysis"),
    ("render", "", "anchorfs::render"),
    ("cache", "", "anchorfs::cache"),
    ("cache (LMDB)", "liblmdb", ""),
    ("fs / refresh / cli", "", "anchorfs::"),
    ("C++ library templates (inlined callers unknown)", "anchorfs", "std::"),
    ("malloc / libc", "libc", ""),
]


def profile_group(dso, symbol):
    for label, dso_part, symbol_part in PROFILE_GROUPS:
        if dso_part in dso and symbol_part in symbol:
            return label
    return "other"


def measure_scaling(sizes, tools, work, args):
    config = Anchorfs(tools, "topo")
    config.cache_dir = os.path.join(work, "cache", "scaling")
    points = []
    failed = False
    too_slow = None
    for lines in sizes:
        if too_slow is not None:
            points.append({"size": size_label(lines), "lines": 0, "files": 0, "bytes": 0,
                           "skipped": f"{size_label(too_slow)} took over {SCALING_BUDGET:.0f} s"})
            continue
        src = synthetic(lines, args.corpora_dir)
        real_lines = corpus_lines(src)
        files, size, _ = tree_census(src)
        warm_source(src)
        mnt = os.path.join(work, "mnt", f"scaling-{lines}")
        times, rss = [], []
        log(f"  scaling {size_label(lines)}")
        try:
            for _ in range(min(args.reps, 3)):
                if times and sum(times) > SERIES_BUDGET:
                    break
                m = config.mount(src, mnt, "cold")
                times.append(m.seconds)
                rss.append(m.rss_mb())
                m.close()
            if min(times) > SCALING_BUDGET:
                too_slow = lines
            points.append({"size": size_label(lines), "lines": real_lines, "files": files, "bytes": size,
                           "mount_s": median(times), "rss_mb": median(rss)})
        except (BenchError, OSError, subprocess.SubprocessError) as exc:
            log(f"  scaling {lines} FAILED: {exc}")
            points.append({"size": size_label(lines), "lines": real_lines, "files": files, "bytes": size,
                           "error": str(exc)})
            failed = True
    return points, failed
