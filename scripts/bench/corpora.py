#!/usr/bin/env python3
"""Benchmark corpora: Debian's sympy and django sources, generated synthetic trees, any directory."""

import os
import re
import shutil
import subprocess
import sys

from system import BenchError, log


DEBIAN_CORPORA = {
    "sympy": "/usr/lib/python3/dist-packages/sympy",
    "django": "/usr/lib/python3/dist-packages/django",
}


GEN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gen_synthetic.py")


def parse_size(text):
    text = text.lower()
    scale = {"k": 1000, "m": 1000000}.get(text[-1:], 1)
    return int(float(text.rstrip("km")) * scale)


def size_label(lines):
    return f"{lines // 1000000}M" if lines % 1000000 == 0 else f"{lines // 1000}k" if lines % 1000 == 0 else str(lines)


def synthetic(lines, corpora_dir):
    """Generates (once, cached by size and generator version) a synthetic tree of `lines` lines."""
    version = re.search(r"GENERATOR_VERSION = (\d+)", open(GEN, encoding="utf-8").read()).group(1)
    out = os.path.join(corpora_dir, f"synth-{size_label(lines)}-s1-v{version}")
    stamp = out + ".done"
    if not os.path.exists(stamp):
        shutil.rmtree(out, ignore_errors=True)
        log(f"generating synthetic corpus {size_label(lines)} lines into {out}")
        subprocess.run([sys.executable, GEN, "--lines", str(lines), "--seed", "1", "--out", out],
                       check=True, stdout=subprocess.DEVNULL)
        open(stamp, "w", encoding="ascii").close()
    return out


def resolve_corpus(spec, corpora_dir):
    if spec in DEBIAN_CORPORA:
        return spec, DEBIAN_CORPORA[spec]
    if spec.startswith("synth-"):
        return spec, synthetic(parse_size(spec[len("synth-"):]), corpora_dir)
    if os.path.isdir(spec):
        return os.path.basename(os.path.normpath(spec)), os.path.abspath(spec)
    raise BenchError(f"unknown corpus {spec!r} (sympy, django, synth-SIZE or a directory)")
