#!/usr/bin/env bash
# The two container recipes of docs/containers.md, with real namespaces instead of a container
# engine: (1) a mount made on the host is bound into a "container" (a process in its own mount
# namespace) with slave propagation, so a mount made after the container started still reaches it;
# a process there reads the tagged view and lands an edit through --writable, tag-free in the
# checkout; with private propagation (docker's default) it sees an empty directory. (2) anchorfs
# runs inside a new user + mount namespace (a rootless container) given /dev/fuse.
# Usage: containers_test.sh ANCHORFS_BIN SAMPLE_PROJECT   (root)
set -euo pipefail
anchorfs="$1"
sample="$2"
work="$(mktemp -d "${TMPDIR:-/tmp}/anchorfs-containers.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() { echo "containers_test: $*" >&2; exit 1; }

# The "host" is a private mount namespace of its own, so nothing leaks into the real one. Its
# volume directory is a shared mount, as / is on a systemd host (docker's rslave needs that).
unshare --mount --propagation private bash -euo pipefail -s "$anchorfs" "$sample" "$work" <<'HOST'
anchorfs="$1" sample="$2" work="$3"
fail() { echo "containers_test: $*" >&2; exit 1; }
cp -r "$sample" "$work/repo"
mkdir -p "$work/volume" "$work/slave" "$work/private"
mount -t tmpfs volume "$work/volume"
mount --make-shared "$work/volume"
mkdir "$work/volume/tagged"
mkfifo "$work/slave.go" "$work/private.go"

# A container started before the mount: like `docker run -v HOST:/workspace:rslave` (slave) and
# like plain `-v` (private). Each waits until the host has mounted, then looks.
container() {
  local propagation="$1"
  unshare --mount --propagation "$propagation" sh -ec '
    mount --rbind "$1/volume" "$1/$2" && mount --make-r$2 "$1/$2"
    read go < "$1/$2.go"
    ls "$1/$2/tagged" > "$1/$2.ls"
    if [ "$2" = slave ]; then
      grep -c "# === Function Annotation ===" "$1/slave/tagged/bookshelf/services.py" > "$1/slave.count"
      sed -i "s/^class NotFound/# edited in the container\nclass NotFound/" "$1/slave/tagged/bookshelf/errors.py"
    fi
  ' sh "$work" "$propagation" &
}
container slave
slave=$!
container private
private=$!
"$anchorfs" mount --writable --no-cache "$work/repo" "$work/volume/tagged" 2>/dev/null
echo go > "$work/slave.go"
echo go > "$work/private.go"
wait "$slave" || fail "the slave container failed"
wait "$private" || fail "the private container failed"
"$anchorfs" unmount "$work/volume/tagged"

[ "$(cat "$work/slave.ls")" = "$(ls "$work/repo")" ] || fail "slave container saw: $(cat "$work/slave.ls")"
[ "$(cat "$work/slave.count")" -gt 0 ] || fail "no tags read in the container"
[ -z "$(cat "$work/private.ls")" ] || fail "a private bind saw a mount made after it: $(cat "$work/private.ls")"
grep -q "^# edited in the container" "$work/repo/bookshelf/errors.py" || fail "the edit did not land"
! grep -q "=== .* Annotation ===" "$work/repo/bookshelf/errors.py" || fail "tags reached the checkout"
HOST

# (2) A rootless container: a user namespace mapping root, its own mount namespace, and the FUSE
# device passed in (a usable node of it bound on /dev/fuse, as `--device /dev/fuse` does).
mkdir -p "$work/ns/mnt"
cp -r "$sample" "$work/ns/repo"
mknod "$work/ns/fuse" c 10 229
chmod 666 "$work/ns/fuse"
unshare --mount --propagation private sh -ec '
  mount --bind "$1/fuse" /dev/fuse
  exec unshare --user --map-root-user --mount --propagation private sh -ec "
    \"\$0\" mount --no-cache \"\$1/repo\" \"\$1/mnt\" 2>/dev/null
    grep \" \$1/mnt .* - fuse.anchorfs \" /proc/self/mountinfo | grep -q user_id=0
    grep -c \"# === Function Annotation ===\" \"\$1/mnt/bookshelf/services.py\" > \"\$1/count\"
    \"\$0\" unmount \"\$1/mnt\"" "$0" "$1"' "$anchorfs" "$work/ns"
[ "$(cat "$work/ns/count")" -gt 0 ] || fail "no tags served inside the user namespace"
grep -q " $work/ns/mnt " /proc/self/mountinfo && fail "the namespace's mount leaked out"
echo "containers_test: slave-propagated host mount read and written from a container;" \
  "anchorfs served inside a user+mount namespace"
