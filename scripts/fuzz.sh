#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a while over the seed corpus.
#   scripts/fuzz.sh [SECONDS_PER_TARGET=60] [BUILD_DIR=build-fuzz] [TARGET...]
#   scripts/fuzz.sh --run-only FUZZER_BINARY SECONDS SEED_DIR   (what the ctest smoke runs)
# Findings go to BUILD_DIR/fuzz-findings/; the growing corpus to BUILD_DIR/fuzz-corpus/<target>/
# (kept between runs so long campaigns accumulate). Extra libFuzzer flags: FUZZ_FLAGS="-jobs=2".
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

run_one() {
  local binary="$1" seconds="$2" seeds="$3" work="$4" findings="$5"
  mkdir -p "$work" "$findings"
  # A dictionary fuzz/<target>.dict (next to the seed directory's parent) guides mutations.
  local dict="$seeds/../../$(basename "$binary" | sed 's/^fuzz_//').dict" dict_flag=""
  [ -f "$dict" ] && dict_flag="-dict=$dict"
  local log
  log="$(mktemp)"
  # max_len bounds one input; timeout catches hangs (a hang is a finding like a crash).
  local status=0
  "$binary" "$work" "$seeds" -max_total_time="$seconds" -max_len=16384 -timeout=20 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" $dict_flag \
    ${FUZZ_FLAGS:-} >"$log" 2>&1 || status=$?
  local runs
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  echo "fuzz: $(basename "$binary"): ${runs:-0} executions in ${seconds}s, exit $status"
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$log" >&2
    echo "fuzz: findings in $findings" >&2
  fi
  rm -f "$log"
  return "$status"
}

if [ "${1:-}" = "--run-only" ]; then
  binary="$2" seconds="$3" seeds="$4"
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  run_one "$binary" "$seconds" "$seeds" "$scratch/corpus" "$scratch/findings"
  exit $?
fi

seconds="${1:-60}"
build="${2:-$here/build-fuzz}"
shift 2 || shift $# || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(analyze_render strip graph_decode)

CC=clang CXX=clang++ cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DANCHORFS_FUZZ=ON -DANCHORFS_TESTS=OFF -DANCHORFS_WERROR=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

failed=0
for target in "${targets[@]}"; do
  run_one "$build/fuzz/fuzz_$target" "$seconds" "$here/fuzz/corpus/$target" \
    "$build/fuzz-corpus/$target" "$build/fuzz-findings" || failed=1
done
exit "$failed"
