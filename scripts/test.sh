#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: plain (gcc, Release), then
# ASan/UBSan with the fuzzers' smoke runs (clang, Debug). ANCHORFS_SANITIZE=0 skips the second
# pass (for quick local runs). The sanitizer pass leaves out the benchmark smoke (label "bench"):
# it times tools, not anchorfs code.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/install-deps.sh"

# Tests never touch the user's cache or configuration: every anchorfs a test starts without an
# explicit --cache-dir uses this run's own XDG directories, removed at the end.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_CACHE_HOME="$scratch/cache" XDG_CONFIG_HOME="$scratch/config"

run_suite() {
  local build="$1" ctest_args="$2"; shift 2
  local start=$SECONDS
  echo "anchorfs: building $build" >&2
  "$here/scripts/build.sh" "$build" "$@" >/dev/null
  echo "anchorfs: built $build in $((SECONDS - start)) s" >&2
  start=$SECONDS
  # shellcheck disable=SC2086
  (cd "$build" && ctest --output-on-failure -j "$(nproc)" --timeout 600 $ctest_args)
  echo "anchorfs: tested $build in $((SECONDS - start)) s" >&2
}

run_suite "$here/build" ""
if [ "${ANCHORFS_SANITIZE:-1}" != 0 ]; then
  # One clang tree for the sanitizer pass and the fuzzers: every test under ASan/UBSan, plus the
  # libFuzzer targets' smoke runs (ctest label "fuzz", ANCHORFS_FUZZ_SMOKE_SECONDS each).
  CC=clang CXX=clang++ BUILD_TYPE=Debug run_suite "$here/build-clang-asan" "-LE bench" \
    -DANCHORFS_SANITIZE=ON -DANCHORFS_FUZZ=ON \
    -DANCHORFS_FUZZ_SMOKE_SECONDS="${ANCHORFS_FUZZ_SMOKE_SECONDS:-20}"
fi
