#!/usr/bin/env bash
# Runs scripts/bench.sh --quick on a tiny synthetic corpus and checks that every table is complete.
set -euo pipefail
src="$1" out="$2" configs="$3" scaling="$4"
shift 4
report="$out/bench-smoke.md"
rm -f "$report"
export ANCHORFS_BENCH_CORPORA="$out/corpora" TMPDIR="$out/tmp"
mkdir -p "$TMPDIR"
"$src/scripts/bench.sh" --quick --no-install --corpus synth-5k --reps 1 --reads 200 \
  --configs "$configs" --scaling "$scaling" --output "$report" "$@"
python3 "$src/scripts/bench/check_report.py" "$report" --corpus synth-5k --configs "$configs" --scaling "$scaling"
if awk -v t="$TMPDIR/" 'index($5, t) == 1 { found = 1 } END { exit !found }' /proc/self/mountinfo; then
  echo "bench left a mount behind" >&2
  exit 1
fi
