#!/usr/bin/env bash
# Installs the Debian packages anchorfs needs to build, test and run (only those missing).
# Usage: scripts/install-deps.sh [--quickstart] [EXTRA_PACKAGE...]. --quickstart (scripts/run.sh)
# installs only what building the executable and mounting need: on a fresh Debian 12 that is 149
# MB to fetch instead of 421 MB (483 packages instead of 666; docs/benchmarks.md, quick start).
set -euo pipefail
quickstart=0
if [ "${1:-}" = --quickstart ]; then
  quickstart=1
  shift
fi

# The build (npm fetches the grammars at configure time) and the mount; rg for the demo's hints.
packages=(
  build-essential cmake pkg-config git nodejs npm ripgrep ccache
  libfuse3-dev fuse3 libtbb-dev libfmt-dev libjemalloc-dev
  libcli11-dev nlohmann-json3-dev libxxhash-dev liblmdb-dev libpcre2-dev libssl-dev libhiredis-dev
)
quickstart_count=${#packages[@]}
# The tests and benchmarks.
packages+=(
  python3 libgtest-dev
  python3-sympy python3-django  # corpora of scripts/bench_tags.sh and the tag budget check
  redis-server redis-tools  # the remote cache tier's tests start their own on a loopback port
  bindfs  # the bench smoke compares against it
)
packages+=(patch util-linux)  # writable-mount tests: patch -p1, setpriv (a daemon without DAC override)
# The sanitizer pass of scripts/test.sh and the libFuzzer targets build with clang (clang-14 is
# what provides the clang binary; libclang-rt-14-dev its sanitizer and libFuzzer runtimes).
packages+=(clang clang-14 libclang-rt-14-dev)
packages+=(python3-matplotlib)  # scripts/study plots (tested by tests/study)
packages+=(debootstrap zsh fish groff-base)  # tests/install: the .deb on a clean root, completions, man page
packages+=(zlib1g-dev)  # tests/integration/compile_test.cpp builds its example libraries through a mount
packages+=(valgrind)  # the CI performance guard counts instructions (scripts/bench/perf_guard.py)
# tests/formatters: each language's standard formatter must find a tagged view as clean as its
# checkout (golang-go and golang-1.19-go, whose binaries it links: gofmt and go doc; prettier is fetched pinned by cmake/Prettier.cmake), on
# samples of these Debian corpora.
packages+=(golang-go golang-1.19-go rustfmt black golang-1.19-src librust-regex-dev node-express)
# scripts/bench/languages.py's TypeScript row reads TypeScript's own sources from node-typescript
# (/usr/share/nodejs/typescript), its Rust row the crates of tokio and its dependencies (81 crates,
# 2,468 files in /usr/share/cargo/registry, not regex alone); without them the rows are skipped
# or small.
packages+=(node-typescript librust-tokio-dev)
[ "$quickstart" = 0 ] || packages=("${packages[@]:0:quickstart_count}")
packages+=("$@")

missing=()
for p in "${packages[@]}"; do
  [ "$p" = npm ] && command -v npm >/dev/null && continue  # a nodejs from elsewhere bundles npm
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "anchorfs: installing ${missing[*]}" >&2
$sudo apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
