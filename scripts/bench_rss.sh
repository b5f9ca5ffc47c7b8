#!/usr/bin/env bash
# Daemon memory under many concurrent readers: RSS after the mount, then after R readers spent S
# seconds reading random files with their pages dropped (so every read reaches the daemon).
#
#   scripts/bench_rss.sh [--files N] [--readers R] [--seconds S] [--view V] [--anchorfs BIN ...]
#
# Defaults: 100000 files, 16 readers, 30 s, view topo, build/cli/anchorfs (analysed without a cache). Several --anchorfs compare binaries
# (e.g. main's and a branch's) on the same generated tree, one row each. Needs root (mounts).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
files=100000 readers=16 seconds=30 view=topo binaries=()
while [ $# -gt 0 ]; do
  case "$1" in
    --files) files="$2"; shift ;;
    --readers) readers="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --view) view="$2"; shift ;;
    --anchorfs) binaries+=("$2"); shift ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ ${#binaries[@]} -gt 0 ] || binaries=("$here/build/cli/anchorfs")

work="$(mktemp -d /tmp/anchorfs-bench-rss-XXXXXX)"
mnt="$work/mnt"
cleanup() { umount -l "$mnt" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$mnt"
python3 - "$work/repo" "$files" <<'PY'
import os, sys
root, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    d = os.path.join(root, f"pkg{i // 1000:03d}")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"m{i:06d}.py"), "w") as f:
        f.write(f"def f{i}():\n    return {i}\n\n\ndef g{i}():\n    return f{i}() + 1\n" * 8)
PY

rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

printf '| binary | view | files | readers | seconds | RSS after mount (MB) | RSS after readers (MB) | growth (MB) | reads |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for bin in "${binaries[@]}"; do
  "$bin" mount "$work/repo" "$mnt" --view "$view" --no-watch --no-cache -f > "$work/daemon.log" 2>&1 &
  daemon=$!
  for _ in $(seq 600); do grep -q " $mnt fuse" /proc/self/mounts && break; sleep 0.1; done
  find "$mnt" -name '*.py' | head -n "$files" > "$work/list"
  before=$(rss_kib "$daemon")
  reads=$(python3 - "$work/list" "$readers" "$seconds" <<'PY'
import os, random, sys, time
from multiprocessing import Pool
paths = open(sys.argv[1]).read().split("\n")[:-1]
readers, seconds = int(sys.argv[2]), float(sys.argv[3])
def read_for(seed):
    rng, end, done = random.Random(seed), time.time() + seconds, 0
    while time.time() < end:
        fd = os.open(rng.choice(paths), os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        while os.read(fd, 1 << 16):
            pass
        os.close(fd)
        done += 1
    return done
with Pool(readers) as pool:
    print(sum(pool.map(read_for, range(readers))))
PY
)
  after=$(rss_kib "$daemon")
  umount "$mnt"
  wait "$daemon" || true
  awk -v b="$bin" -v v="$view" -v f="$files" -v r="$readers" -v s="$seconds" -v x="$before" -v y="$after" -v n="$reads" \
    'BEGIN { printf "| %s | %s | %d | %d | %d | %.1f | %.1f | %+.1f | %d |\n", b, v, f, r, s, x/1024, y/1024, (y-x)/1024, n }'
done
