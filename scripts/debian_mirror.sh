#!/usr/bin/env bash
# Prints the Debian mirror the host's apt uses (deb822 or one-line sources), so no script names one.
set -euo pipefail
uri="$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
  grep -v security | head -n 1 || true)"
[ -n "$uri" ] || uri="$(awk '$1 == "deb" && $0 !~ /security/ {print $2; exit}' \
  /etc/apt/sources.list 2>/dev/null || true)"
[ -n "$uri" ] || { echo "debian_mirror: no Debian mirror in the host's apt sources" >&2; exit 1; }
echo "$uri"
