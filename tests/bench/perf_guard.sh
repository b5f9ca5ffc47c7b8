#!/usr/bin/env bash
# The CI performance guard: counts instructions on the generated corpus and fails when a ratio
# regressed more than 25 % against scripts/bench/perf_baseline.json (docs/benchmarks.md).
set -euo pipefail
src="$1" work="$2" anchorfs="$3" floor="$4"
rm -rf "$work" && mkdir -p "$work"
python3 "$src/scripts/bench/perf_guard.py" measure --anchorfs "$anchorfs" --floor "$floor" \
  --work "$work" --out "$work/measured.json" >/dev/null
python3 "$src/scripts/bench/perf_guard.py" compare "$work/measured.json" \
  "$src/scripts/bench/perf_baseline.json"
