#!/usr/bin/env bash
# Checks the performance guard's verdicts on measured ratios: within 25 % of the stored ones it
# passes, one ratio 30 % up (or missing, or measured on another corpus) fails it.
set -euo pipefail
src="$1" out="$2"
guard="$src/scripts/bench/perf_guard.py"
rm -rf "$out" && mkdir -p "$out"
ratios_file() {  # FILE CORPUS COLD WARM
  printf '{"guard_version": 1, "corpus": "%s", "instructions": {"floor": 1000},
"ratios": {"cold_topo": %s, "warm": %s}}\n' "$2" "$3" "$4" >"$1"
}
ratios_file "$out/baseline.json" synth 1.40 0.10
ratios_file "$out/same.json" synth 1.40 0.10
ratios_file "$out/within.json" synth 1.54 0.124
ratios_file "$out/slower.json" synth 1.40 0.13
ratios_file "$out/other.json" other 1.40 0.10
printf '{"guard_version": 1, "corpus": "synth", "instructions": {"floor": 1000},
"ratios": {"cold_topo": 1.40}}\n' >"$out/missing.json"
verdict() {  # VERDICT MEASURED
  local rc=0
  python3 "$guard" compare "$out/$2" "$out/baseline.json" >"$out/$2.log" 2>&1 || rc=$?
  if { [ "$1" = pass ] && [ $rc -ne 0 ]; } || { [ "$1" = fail ] && [ $rc -ne 1 ]; }; then
    echo "perf_guard compare on $2: expected $1, exit $rc" >&2
    cat "$out/$2.log" >&2
    exit 1
  fi
}
verdict pass same.json
verdict pass within.json
verdict fail slower.json
verdict fail other.json
verdict fail missing.json
grep -q '| warm | 0.1300 | 0.1000 | 1.300 | FAIL |' "$out/slower.json.log" ||
  { echo "the failing row is not reported" >&2; cat "$out/slower.json.log" >&2; exit 1; }
echo "perf_guard compare: 5 passed, 0 failed"
