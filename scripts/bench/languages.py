#!/usr/bin/env python3
"""Per-language mount budgets: cold mount vs tree-sitter's parse time, and warm remount.

    scripts/bench/languages.py [--anchorfs BIN] [--parse-floor BIN] [--reps N] [--work DIR]
                               [--corpus LANG=PATH ...] [--output FILE|-] [--vs BIN]

For each corpus (defaults: Debian's sympy, Go standard library, OpenJDK's java.base, the Rust
crates of Debian's cargo registry (librust-tokio-dev and its dependencies), and TypeScript's own sources from node-typescript), in one run:
lines and files of the language, the one-thread parse floor (anchorfs_parse_floor: tree-sitter
alone), the cold mount (a fresh cache; `anchorfs mount` returns when the view is ready; 2 analysis
threads) and the warm remount (same cache). Each repetition measures the floor, then the cold and
the warm mount, so a slow minute of a shared machine weighs on both sides of the ratio; the table
gives medians of --reps. Budgets (issue 29): cold mount within 1.2x the parse time on 2 cores (the
one-thread floor / 2) for Python, 1.3x for the others; warm remount <= 0.2 s for Python, 0.3 s for
the others (issue 13). Prints a Markdown table; with --output FILE writes it between the
`languages` markers of FILE. With --vs BIN, BIN's cold mounts alternate with --anchorfs's in
every repetition (which goes first alternates too) and a second table compares the two.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from system import BenchError, is_mounted, log  # noqa: E402

DEFAULT_CORPORA = {
    "python": "/usr/lib/python3/dist-packages/sympy",
    "go": "/usr/share/go-1.19/src",
    "java": "java.base from /usr/lib/jvm/openjdk-17/lib/src.zip",
    "rust": "/usr/share/cargo/registry",
    "javascript": "/usr/share/nodejs/typescript",
}
BEGIN, END = "<!-- languages:begin -->", "<!-- languages:end -->"
COLD_BUDGET = {"python": 1.2}  # cold / (floor / 2); issue 29
WARM_BUDGET = {"python": 0.2}  # seconds
DEFAULT_COLD_BUDGET, DEFAULT_WARM_BUDGET = 1.3, 0.3


def java_base(work):
    """java.base's sources, unpacked once from the JDK's src.zip."""
    out = os.path.join(work, "java.base")
    if not os.path.exists(out + ".done"):
        shutil.rmtree(out, ignore_errors=True)
        with zipfile.ZipFile("/usr/lib/jvm/openjdk-17/lib/src.zip") as archive:
            for name in archive.namelist():
                if name.startswith("java.base/") and name.endswith(".java"):
                    archive.extract(name, work)
        open(out + ".done", "w").close()
    return out


def corpus_path(language, spec, work):
    if language == "java" and spec == DEFAULT_CORPORA["java"]:
        return java_base(work)
    return spec


def parse_floor(tool, root):
    out = subprocess.run([tool, root], check=True, capture_output=True, text=True).stdout
    # "files N bytes B parse-only cpu S s (one thread)"
    words = out.split()
    return float(words[words.index("cpu") + 1])


def language_row(anchorfs, root, language):
    out = subprocess.run([anchorfs, "stats", "--json", "--no-cache", "--view", "topo", root],
                         check=True, capture_output=True, text=True).stdout
    stats = json.loads(out)
    for row in stats.get("languages", []):
        if row["name"] == language:
            return stats, row
    return stats, None


def timed_mount(anchorfs, root, mnt, cache):
    start = time.monotonic()
    subprocess.run([anchorfs, "mount", "--threads", "2", "--cache-dir", cache, "--view", "auto",
                    root, mnt], check=True, capture_output=True)
    seconds = time.monotonic() - start
    subprocess.run([anchorfs, "unmount", mnt], check=True, capture_output=True)
    if is_mounted(mnt):
        raise BenchError(f"{mnt} still mounted")
    return seconds


def measure(language, root, args, work):
    stats, row = language_row(args.anchorfs, root, language)
    mnt = os.path.join(work, "mnt")
    os.makedirs(mnt, exist_ok=True)
    floors, cold, warm, other = [], [], [], []
    for rep in range(args.reps):
        floors.append(parse_floor(args.parse_floor, root))
        # With --vs, the other build's cold mount alternates sides with this one's.
        if args.vs and rep % 2 == 1:
            other.append(cold_mount(args.vs, root, mnt, work))
        cache = tempfile.mkdtemp(dir=work, prefix="cache-")
        cold.append(timed_mount(args.anchorfs, root, mnt, cache))
        warm.append(timed_mount(args.anchorfs, root, mnt, cache))
        shutil.rmtree(cache, ignore_errors=True)
        if args.vs and rep % 2 == 0:
            other.append(cold_mount(args.vs, root, mnt, work))
    floor = statistics.median(floors)
    cold_s, warm_s = statistics.median(cold), statistics.median(warm)
    result = {
        "language": language, "root": root, "lines": stats["files"]["lines"],
        "files": row["files"] if row else 0, "calls": row["edges"]["calls"] if row else 0,
        "floor": floor, "cold": cold_s, "warm": warm_s, "ratio": ratio_to(cold_s, floor),
    }
    if other:
        result["vs_cold"] = statistics.median(other)
        result["vs_ratio"] = ratio_to(result["vs_cold"], floor)
    return result


def ratio_to(cold_s, floor):
    return cold_s / (floor / 2) if floor > 0 else float("nan")


def cold_mount(anchorfs, root, mnt, work):
    cache = tempfile.mkdtemp(dir=work, prefix="cache-")
    try:
        return timed_mount(anchorfs, root, mnt, cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def vs_table(rows, vs):
    lines = [
        "",
        f"Cold mounts alternating with `{vs}` (medians; same floors):",
        "",
        "| language | cold mount | cold / (floor/2) | other build | other / (floor/2) | change |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        change = (r["cold"] / r["vs_cold"] - 1) * 100
        lines.append(f"| {r['language']} | {r['cold']:.2f} s | {r['ratio']:.2f}× | {r['vs_cold']:.2f} s | "
                     f"{r['vs_ratio']:.2f}× | {change:+.1f} % |")
    return "\n".join(lines) + "\n"


def table(rows, reps):
    lines = [
        f"Per-language mount budgets (`scripts/bench/languages.py`, medians of {reps}; "
        "parse floor = one-thread tree-sitter CPU, measured before each cold mount; budgets of "
        "issue 29: cold ≤ 1.2 × floor / 2 on 2 cores for Python, 1.3 × for the others; warm ≤ 0.2 s "
        "for Python, 0.3 s for the others):",
        "",
        "| language | corpus | lines | files | CALLS | parse floor (1 thread) | cold mount | "
        "cold / (floor/2) | budget | warm remount |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        cold_budget = COLD_BUDGET.get(r["language"], DEFAULT_COLD_BUDGET)
        warm_budget = WARM_BUDGET.get(r["language"], DEFAULT_WARM_BUDGET)
        verdict = "ok" if r["ratio"] <= cold_budget else "**MISS**"
        warm = "ok" if r["warm"] <= warm_budget else "**MISS**"
        lines.append(
            f"| {r['language']} | `{r['root']}` | {r['lines']:,} | {r['files']:,} | {r['calls']:,} | "
            f"{r['floor']:.2f} s | {r['cold']:.2f} s | {r['ratio']:.2f}× ({verdict}) | ≤ {cold_budget}× | "
            f"{r['warm']:.2f} s ({warm}) |")
    return "\n".join(lines) + "\n"


def write_between_markers(path, text):
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        doc += f"\n## Languages\n\n{BEGIN}\n{END}\n"
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n" + text + END + tail)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchorfs", default=os.path.join(ROOT, "build", "cli", "anchorfs"))
    parser.add_argument("--parse-floor", default=os.path.join(ROOT, "build", "analysis", "anchorfs_parse_floor"))
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "anchorfs-bench-languages"))
    parser.add_argument("--corpus", action="append", default=[], metavar="LANG=PATH")
    parser.add_argument("--output", default="-")
    parser.add_argument("--vs", metavar="BIN", help="another anchorfs build whose cold mounts alternate "
                        "with --anchorfs's (an A/B on the same floors and minutes)")
    args = parser.parse_args()
    corpora = dict(DEFAULT_CORPORA)
    if args.corpus:
        corpora = dict(spec.split("=", 1) for spec in args.corpus)
    os.makedirs(args.work, exist_ok=True)
    rows = []
    for language, spec in corpora.items():
        root = corpus_path(language, spec, args.work)
        if not os.path.isdir(root):
            log(f"{language}: {root} missing (install the Debian package named in the docstring); skipped")
            continue
        log(f"{language}: {root}")
        rows.append(measure(language, root, args, args.work))
    text = table(rows, args.reps)
    if args.vs:
        text += vs_table(rows, args.vs)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        write_between_markers(args.output, text)
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
