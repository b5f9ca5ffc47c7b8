#!/usr/bin/env bash
# Times the README quick start (scripts/run.sh) as a new user meets it: a fresh clone, an empty ccache.
# Usage: scripts/bench/quickstart.sh [COMMIT]   (default HEAD). Prints wall, user and sys seconds of
# the whole run.sh (package check, configure with the grammar downloads, build, mount), then unmounts
# and removes the clone. QS_KEEP=DIR keeps the clone and the logs in DIR instead; QS_TUS=1 adds the
# CPU of each compile (QS_KEEP/tus: user sys wall command) through CCACHE_PREFIX.
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
commit="${1:-HEAD}"
work="${QS_KEEP:-$(mktemp -d /tmp/anchorfs-quickstart.XXXXXX)}"
mkdir -p "$work"
rm -rf "$work/clone" "$work/ccache" "$work/mnt"
git clone -q "$here" "$work/clone"
git -C "$work/clone" checkout -q "$(git -C "$here" rev-parse "$commit")"
mkdir -p "$work/ccache" "$work/mnt"
export CCACHE_DIR="$work/ccache"
if [ "${QS_TUS:-0}" = 1 ]; then
  : >"$work/tus"
  printf '#!/bin/sh\nexec /usr/bin/time -a -o %q -f "%%U %%S %%e %%C" "$@"\n' "$work/tus" >"$work/timeit.sh"
  chmod +x "$work/timeit.sh"
  export CCACHE_PREFIX="$work/timeit.sh"
fi
/usr/bin/time -o "$work/total" -f '%e wall %U user %S sys' \
  "$work/clone/scripts/run.sh" "$work/clone/examples/sample_project" "$work/mnt" >"$work/log" 2>&1
"$work/clone/build/cli/anchorfs" unmount "$work/mnt"
cat "$work/total"
[ -n "${QS_KEEP:-}" ] || rm -rf "$work"
