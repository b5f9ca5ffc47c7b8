#!/usr/bin/env bash
# Builds the Debian package: scripts/package.sh [BUILD_DIR]  ->  BUILD_DIR/anchorfs_<version>_<arch>.deb
# (binary with the grammars compiled in, man page, bash/zsh/fish completions, docs, the sample
# project). Depends: fuse3 and the runtime libraries dpkg-shlibdeps finds.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$(realpath -m "${1:-$here/build}")"
ANCHORFS_TARGETS="anchorfs anchorfs_reference" "$here/scripts/build.sh" "$build" >/dev/null
(cd "$build" && cpack -G DEB -B "$build/package" >/dev/null)
deb="$(ls "$build"/package/anchorfs_*.deb)"
mv "$deb" "$build/"
echo "$build/$(basename "$deb")"
