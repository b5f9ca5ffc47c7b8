#!/usr/bin/env bash
# Configures and builds anchorfs: scripts/build.sh [BUILD_DIR] [extra cmake -D options...]
# ANCHORFS_TARGETS="t1 t2" builds only those targets (default: everything, tests included).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
shift || true
# ccache keys on paths relative to the checkout, so clones in other folders (CI's fresh clone,
# git worktrees) reuse each other's objects instead of compiling everything again.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$here}"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" "$@" >/dev/null
# shellcheck disable=SC2086
cmake --build "$build" -j "$(nproc)" ${ANCHORFS_TARGETS:+--target $ANCHORFS_TARGETS}
