#!/usr/bin/env bash
# The oracle for analysis changes meant to keep the output: the entities and edges two builds of
# anchorfs_dump_graph give on the same repositories, compared (timings aside).
#   scripts/compare_graphs.sh OLD_DUMP_GRAPH NEW_DUMP_GRAPH [REPO...]
# REPO defaults to Debian's sympy and django sources. Exits 1 when any repository differs and
# leaves both dumps in a temporary directory for diffing.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,6p' "$0" >&2
  exit 2
fi
old="$1" new="$2"
shift 2
repos=("$@")
[ ${#repos[@]} -gt 0 ] || repos=(/usr/lib/python3/dist-packages/sympy /usr/lib/python3/dist-packages/django)
work="$(mktemp -d)"
status=0
for repo in "${repos[@]}"; do
  name="$(basename "$repo")"
  # Line 3 is the timing line; stderr (skipped files) is not part of the graph.
  "$old" "$repo" --edges --entities 2>/dev/null | sed 3d >"$work/$name.old"
  "$new" "$repo" --edges --entities 2>/dev/null | sed 3d >"$work/$name.new"
  if cmp -s "$work/$name.old" "$work/$name.new"; then
    echo "$name: identical"
  else
    echo "$name: DIFFERENT: diff $work/$name.old $work/$name.new"
    status=1
  fi
done
[ "$status" -ne 0 ] || rm -rf "$work"
exit "$status"
