#!/usr/bin/env bash
# Demo: installs what is missing, builds (Release), and mounts a repository's tagged view.
# Usage: scripts/run.sh [REPO] [MOUNTPOINT]   (defaults: examples/sample_project, /tmp/anchorfs-demo)
# ANCHORFS_BUILD_DIR overrides the build directory (default: build/).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="${1:-$here/examples/sample_project}"
mountpoint="${2:-/tmp/anchorfs-demo}"

"$here/scripts/install-deps.sh" --quickstart
build="${ANCHORFS_BUILD_DIR:-$here/build}"
echo "anchorfs: building (Release) into $build" >&2
# The demo needs the executable only: the test suite (about 40 % of the translation units, and
# the slowest to compile) and the packages it needs come with scripts/test.sh.
ANCHORFS_TESTS=OFF ANCHORFS_TARGETS=anchorfs "$here/scripts/build.sh" "$build" >/dev/null
anchorfs="$build/cli/anchorfs"

# A previous demo mount (live, or left behind by a killed daemon) is cleared first.
if grep -q " $(realpath -m "$mountpoint") .* - fuse\.anchorfs " /proc/self/mountinfo; then
  "$anchorfs" unmount "$mountpoint" || "$anchorfs" unmount --lazy "$mountpoint"
fi
mkdir -p "$mountpoint"

"$anchorfs" mount "$repo" "$mountpoint"

cat <<EOT

The tagged view of $repo is mounted on $mountpoint (read-only; the checkout is untouched).
Look around:
  cd $mountpoint && rg "def "            # hits show the code and the tag blocks above it
  rg -n "CALLED_BY" $mountpoint | head
  cat $mountpoint/bookshelf/models.py     # (for the sample project)
Point an agent at it by starting it in $mountpoint (or setting its working directory there).
Unmount with:
  $anchorfs unmount $mountpoint
EOT
