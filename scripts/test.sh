#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: plain (gcc, Release), then
# ASan/UBSan with the fuzzers' smoke runs (clang, Debug). ANCHORFS_SANITIZE=0 skips the second
# pass (for quick local runs). The sanitizer pass leaves out the benchmark smoke (label "bench": it
# times tools, not anchorfs code) and the checks on whole Debian corpora (label "corpus": minutes
# under ASan, no code the unit tests do not reach) and the Debian package's test (label "package":
# it packs and installs the Release binary into a clean root, which has no sanitizer runtime).
# It also leaves to the plain pass what checks the machine and other programs rather than memory
# safety (labels "install": man page, completions, doctor, containers; "formatters": gofmt,
# rustfmt, black and prettier on exported views) and the two hostile categories that only scale
# the inputs of code the others reach (huge_file, many_files): together about a third of the
# sanitizer pass's time.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/install-deps.sh"

# Tests never touch the user's cache or configuration: ctest gives every test a home inside the
# build tree (tests/CMakeLists.txt). Checked here: what anchorfs would write in the user's cache
# and configuration directories, and which programs have a directory there, is the same after
# each ctest run as before it.
home_fingerprint() {
  local dir
  for dir in "$HOME/.cache" "${XDG_CACHE_HOME:-}" "$HOME/.config" "${XDG_CONFIG_HOME:-}"; do
    [ -n "$dir" ] && [ -d "$dir" ] || continue
    find "$dir" -mindepth 1 -maxdepth 1 -printf '%p\n'
    if [ -d "$dir/anchorfs" ]; then find "$dir/anchorfs" -printf '%p %s %T@\n'; fi
  done | sort -u
}

run_suite() {
  local build="$1" ctest_args="$2"; shift 2
  local start=$SECONDS
  echo "anchorfs: building $build" >&2
  "$here/scripts/build.sh" "$build" "$@" >/dev/null
  echo "anchorfs: built $build in $((SECONDS - start)) s" >&2
  start=$SECONDS
  local before
  before="$(home_fingerprint)"
  # shellcheck disable=SC2086
  (cd "$build" && ctest --output-on-failure -j "$(nproc)" --timeout 600 $ctest_args)
  if [ "$(home_fingerprint)" != "$before" ]; then
    echo "anchorfs: the tests changed the user's cache or configuration directories:" >&2
    diff <(printf '%s\n' "$before") <(home_fingerprint) >&2 || true
    exit 1
  fi
  echo "anchorfs: tested $build in $((SECONDS - start)) s" >&2
}

run_suite "$here/build" ""
if [ "${ANCHORFS_SANITIZE:-1}" != 0 ]; then
  # One clang tree for the sanitizer pass and the fuzzers: the tests above under ASan/UBSan, plus the
  # libFuzzer targets' smoke runs (ctest label "fuzz", ANCHORFS_FUZZ_SMOKE_SECONDS each). Its
  # libraries compile file by file (the gcc tree above uses unity batches), so a file that
  # compiles only thanks to a batch neighbour's includes fails here.
  CC=clang CXX=clang++ BUILD_TYPE=Debug run_suite "$here/build-clang-asan" \
    "-LE bench|corpus|package|install|formatters -E HostileCorpus.*/(huge_file|many_files)" \
    -DANCHORFS_SANITIZE=ON -DANCHORFS_FUZZ=ON -DANCHORFS_UNITY=OFF \
    -DANCHORFS_FUZZ_SMOKE_SECONDS="${ANCHORFS_FUZZ_SMOKE_SECONDS:-20}"
fi
