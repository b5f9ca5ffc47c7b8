#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (plain, then ASan/UBSan).
# ANCHORFS_SANITIZE=0 skips the sanitizer pass (for quick local runs).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/install-deps.sh"

run_suite() {
  local build="$1"; shift
  "$here/scripts/build.sh" "$build" "$@"
  (cd "$build" && ctest --output-on-failure -j "$(nproc)" --timeout 600)
}

run_suite "$here/build"
if [ "${ANCHORFS_SANITIZE:-1}" != 0 ]; then
  BUILD_TYPE=Debug run_suite "$here/build-asan" -DANCHORFS_SANITIZE=ON
fi
