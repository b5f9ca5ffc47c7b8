#!/usr/bin/env bash
# Configures and builds anchorfs: scripts/build.sh [BUILD_DIR] [extra cmake -D options...]
# ANCHORFS_TARGETS="t1 t2" builds only those targets (default: everything, tests included).
# ANCHORFS_TESTS=OFF configures without the test suite (scripts/run.sh); it is set on every
# configure, so a tree run.sh made gets its tests back from the next plain build.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
shift || true
# ccache keys on paths relative to the checkout, so clones in other folders (CI's fresh clone,
# git worktrees) reuse each other's objects instead of compiling everything again.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$here}"
# Debug builds (-g) would otherwise hash the build directory too, so the sanitizer tree of a fresh
# clone would miss every object another clone already compiled.
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DANCHORFS_TESTS="${ANCHORFS_TESTS:-ON}" "$@" >/dev/null
# shellcheck disable=SC2086
cmake --build "$build" -j "$(nproc)" ${ANCHORFS_TARGETS:+--target $ANCHORFS_TARGETS}
