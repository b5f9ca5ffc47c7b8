#!/usr/bin/env bash
# The .deb on a clean Debian 12: builds the package with cpack, installs it with apt into a fresh
# minimal bookworm root (debootstrap --variant=minbase; made once and kept as a tarball in the build
# tree, every run unpacks a new copy), and mounts the sample project from inside that root.
# Usage: package_test.sh BUILD_DIR ANCHORFS_BIN      (root; needs the Debian mirror the host uses)
set -euo pipefail
build="$1"
anchorfs="$2"
cache="$build/package-test"
tarball="$cache/debian12-minbase.tar"
mkdir -p "$cache/apt-archives/partial"

if [ ! -f "$tarball" ]; then
  staging="$cache/debootstrap.tmp"
  rm -rf "$staging"
  mirror="$("$(dirname "$0")/../../scripts/debian_mirror.sh")"
  debootstrap --variant=minbase bookworm "$staging" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { tail -n 20 "$cache/debootstrap.log" >&2; exit 1; }
  tar -C "$staging" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
  rm -rf "$staging"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/anchorfs-package.XXXXXX")"
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work/cpack" >/dev/null)
deb="$(ls "$work"/cpack/anchorfs_*_*.deb)"
case "$(basename "$deb")" in
  anchorfs_*_"$(dpkg --print-architecture)".deb) ;;
  *) echo "package_test: unexpected package name $(basename "$deb")" >&2; exit 1 ;;
esac
# The package's own metadata: fuse3 and the shared libraries the binary links (tree-sitter is
# compiled in, cmake/Grammar.cmake).
depends="$(dpkg-deb -f "$deb" Depends)"
for want in fuse3 libfuse3-3 libtbb12 liblmdb0 libhiredis libjemalloc2; do
  grep -q "$want" <<<"$depends" || { echo "package_test: Depends lacks $want: $depends" >&2; exit 1; }
done
contents="$(dpkg-deb -c "$deb")"
for path in ./usr/bin/anchorfs ./usr/share/man/man1/anchorfs.1.gz \
  ./usr/share/bash-completion/completions/anchorfs ./usr/share/zsh/vendor-completions/_anchorfs \
  ./usr/share/fish/vendor_completions.d/anchorfs.fish ./usr/share/doc/anchorfs/README.md \
  ./usr/share/doc/anchorfs/examples/sample_project/bookshelf/services.py; do
  grep -q " $path\$" <<<"$contents" || { echo "package_test: the package lacks $path" >&2; exit 1; }
done

root="$work/root"
mkdir "$root"
tar -C "$root" -xf "$tarball"
cp "$deb" "$root/tmp/"
# What the sample should look like: rendered by the build tree's binary.
"$anchorfs" render --no-cache "$build/../examples/sample_project" bookshelf/services.py \
  >"$work/expected.py" 2>/dev/null

# In a private mount namespace: the root gets /proc, /dev (for /dev/fuse) and the host's DNS;
# apt keeps the downloaded packages in the build tree between runs.
unshare --mount --propagation private bash -euo pipefail -s "$root" "$(basename "$deb")" "$cache" <<'INNER'
root="$1" deb="$2" cache="$3"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount --bind "$cache/apt-archives" "$root/var/cache/apt/archives"
cp /etc/resolv.conf "$root/etc/resolv.conf"
start=$SECONDS
chroot "$root" apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -q --no-install-recommends \
  "/tmp/$deb" >/dev/null
chroot "$root" anchorfs --version
mkdir "$root/mnt/tagged"
chroot "$root" anchorfs mount /usr/share/doc/anchorfs/examples/sample_project /mnt/tagged
echo "package_test: apt-get update + install + first mount on the clean root: $((SECONDS - start)) s"
chroot "$root" cat /mnt/tagged/bookshelf/services.py >"$root/tmp/served.py"
chroot "$root" anchorfs unmount /mnt/tagged
chroot "$root" sh -c 'test -s /usr/share/man/man1/anchorfs.1.gz && test -s /usr/share/anchorfs/o200k_base.json'
INNER

served="$root/tmp/served.py"
grep -q "^    # === Function Annotation ===" "$served" ||
  { echo "package_test: the installed anchorfs served no tags" >&2; head -n 20 "$served" >&2; exit 1; }
if ! cmp -s "$served" "$work/expected.py"; then
  echo "package_test: the installed anchorfs served other bytes than the build tree renders" >&2
  diff "$work/expected.py" "$served" | head -n 20 >&2
  exit 1
fi
echo "package_test: $(basename "$deb") installed on a clean bookworm root and served the sample"
