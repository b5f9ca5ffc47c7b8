#!/usr/bin/env bash
# Times the README's source quick start on a fresh Debian 12 root: package downloads and installs included.
# Usage: scripts/bench/fresh_root.sh [COMMIT]   (root; default HEAD; needs the Debian mirror the host's
# apt uses and the npm registry). Makes a debootstrap minbase root, gives it only what getting the
# source needs (git, ca-certificates: timed apart), clones COMMIT into it, then times
# `scripts/run.sh` there: install-deps with nothing cached, configure with the grammar downloads,
# a build with an empty ccache, the sample's mount. FRESH_KEEP=DIR keeps the root and logs in DIR.
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
commit="$(git -C "$here" rev-parse "${1:-HEAD}")"
work="${FRESH_KEEP:-$(mktemp -d /tmp/anchorfs-fresh-root.XXXXXX)}"
mkdir -p "$work"
root="$work/root"

if [ -e "$root" ]; then
  umount -R "$root/tmp/anchorfs-demo" 2>/dev/null || true
  rm -rf "$root"
fi
mirror="$("$here/scripts/debian_mirror.sh")"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
# Every ref, so any COMMIT of the repository can be checked out from the bundle.
git -C "$here" bundle create "$root/tmp/anchorfs.bundle" --all >/dev/null 2>&1

# Inside a private mount namespace: /proc, /dev (for /dev/fuse), the host's DNS and the
# certificate authorities the host added itself (a network that inspects TLS, as this machine's
# does, needs them for npm; a machine on the open internet does not). Nothing of the host's apt
# or ccache is shared with the root.
unshare --mount --propagation private bash -euo pipefail -s "$root" "$commit" "$work" <<'INNER'
root="$1" commit="$2" work="$3"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
cp /etc/resolv.conf "$root/etc/resolv.conf"
extra_ca=()
[ -z "${NODE_EXTRA_CA_CERTS:-}" ] || extra_ca=(NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS")
in_root() {
  chroot "$root" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb "${extra_ca[@]}" "$@"
}
start=$SECONDS
in_root apt-get update -q >"$work/prereq.log" 2>&1
DEBIAN_FRONTEND=noninteractive in_root apt-get install -y -q --no-install-recommends \
  git ca-certificates >>"$work/prereq.log" 2>&1
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  in_root update-ca-certificates >>"$work/prereq.log" 2>&1
fi
echo "prerequisites (apt-get update, git, ca-certificates): $((SECONDS - start)) s"
in_root git -c advice.detachedHead=false clone -q /tmp/anchorfs.bundle /root/anchorfs
in_root git -c advice.detachedHead=false -C /root/anchorfs checkout -q "$commit"
# Each line of run.sh's output gets the second it appeared, so the phases (packages, configure
# with the grammar downloads, build, mount) can be read from the log.
start=$SECONDS
if ! /usr/bin/time -o "$work/total" -f '%e wall %U user %S sys' \
  chroot "$root" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb "${extra_ca[@]}" \
  bash -c 'cd /root/anchorfs && scripts/run.sh' 2>&1 |
  while IFS= read -r line; do printf '%4d s  %s\n' "$((SECONDS - start))" "$line"; done \
    >"$work/run.log"; then
  tail -n 30 "$work/run.log" >&2
  exit 1
fi
grep -E 's  anchorfs: (installing|building)' "$work/run.log" || true
echo "scripts/run.sh on the fresh root: $(cat "$work/total")"
grep -q 'CALLED_BY\|CALLS' "$root/tmp/anchorfs-demo/bookshelf/services.py" ||
  { echo "fresh_root: the demo mount serves no tags" >&2; exit 1; }
in_root /root/anchorfs/build/cli/anchorfs unmount /tmp/anchorfs-demo
INNER
[ -n "${FRESH_KEEP:-}" ] || rm -rf "$work"
