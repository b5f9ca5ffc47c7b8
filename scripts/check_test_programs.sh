#!/usr/bin/env bash
# Checks that every external program the tests and bench scripts run comes from a Debian package
# scripts/install-deps.sh installs (or one every Debian system has: Essential or Priority
# required/important), so a fresh machine passes `scripts/test.sh`. Run by .ci/run.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"

# The packages install-deps.sh names (words of its `packages=(...)`/`packages+=(...)` lists).
named="$(sed -n '/^packages+\?=(/,/)/p' scripts/install-deps.sh | sed 's/#.*//' |
  tr -s ' ()' '\n' | grep -E '^[a-z0-9][a-z0-9.+-]+$' | sort -u)"

# With everything those pull in (Depends and Pre-Depends, from the local apt cache): gcc comes
# with build-essential.
closure="$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances $named 2>/dev/null | grep -vE '^[[:space:]]|^<' | sort -u)"
named="$(printf '%s\n%s\n' "$named" "$closure" | sort -u)"

# Programs the C++ tests start: the first word of run({"prog", ...}) and of argv lists.
programs="$(grep -rhoE '(run|spawn|start)\(\{"[a-zA-Z0-9_.+-]+"' tests --include='*.cpp' \
  --include='*.h' | sed -E 's/.*\{"//; s/"$//' || true)"
# Programs the Python test and bench helpers start: subprocess.run(["prog", ...]).
programs+=$'\n'"$(grep -rhoE '(run|Popen|check_output|check_call)\(\s*\["[a-zA-Z0-9_.+-]+"' \
  tests scripts/bench --include='*.py' | sed -E 's/.*\["//; s/"$//' || true)"
# Commands in the test and bench shell scripts: the first word of each pipeline stage.
shell_scripts=(tests/*/*.sh scripts/*.sh)
# Single-quoted text is data (printf formats, awk and sed programs), never a command.
programs+=$'\n'"$(sed -E 's/(^|[[:space:]])#.*$//' "${shell_scripts[@]}" 2>/dev/null |
  sed -E "s/'[^']*'//g" |
  sed -E 's/\$\(|`|\|\||&&|[|;({]/\n/g' |
  sed -E 's/^[[:space:]]*//; s/^(if|then|else|elif|while|until|do|time|!|exec|sudo|\$sudo|env)[[:space:]]+//' |
  sed -E 's/^([A-Za-z_][A-Za-z0-9_]*=[^[:space:]]*[[:space:]]+)+//' |
  grep -oE '^[a-z][a-z0-9_.+-]*' || true)"
# Compilers named in the scripts' environment (CC=clang CXX=clang++ scripts/build.sh ...).
programs+=$'\n'"$(grep -hoE '(^|[[:space:]])(CC|CXX)=[a-z][a-z0-9_.+-]*' "${shell_scripts[@]}" |
  sed -E 's/.*=//' || true)"

# Programs used only when present (scripts/bench/measure.py profiles with perf if it can).
optional=(perf)

status=0
checked=0
for program in $(printf '%s\n' "$programs" | sort -u); do
  # Only programs a Debian system has on its own paths; shell builtins and keywords have none.
  path=""
  for dir in /usr/bin /bin /usr/sbin /sbin; do
    if [ -x "$dir/$program" ] && [ ! -d "$dir/$program" ]; then path="$dir/$program"; break; fi
  done
  [ -n "$path" ] || continue
  case "$(type -t "$program" 2>/dev/null)" in builtin | keyword) continue ;; esac
  grep -qxF "$program" <<<"$(printf '%s\n' "${optional[@]}")" && continue
  owner=""
  for candidate in "$path" "/bin/$program" "/usr/bin/$program" "$(readlink -f "$path")"; do
    owner="$(dpkg-query -S "$candidate" 2>/dev/null | grep -v "^diversion" | head -1 |
      cut -d: -f1 | cut -d, -f1)" || true
    [ -n "$owner" ] && break
  done
  checked=$((checked + 1))
  if [ -z "$owner" ]; then
    echo "check_test_programs: $program ($path) belongs to no Debian package" >&2
    status=1
    continue
  fi
  # Here-strings, not `printf | grep -q`: grep -q exits at its first match, and under pipefail
  # the writer's SIGPIPE would fail the test at random (it did once in CI).
  if grep -qxF "$owner" <<<"$named"; then continue; fi
  read -r essential priority < <(dpkg-query -W -f='${Essential} ${Priority}\n' "$owner")
  if [ "$essential" = yes ] || [ "$priority" = required ] || [ "$priority" = important ]; then
    continue
  fi
  echo "check_test_programs: tests run '$program' from package $owner, which" \
    "scripts/install-deps.sh does not install" >&2
  status=1
done
[ "$status" -eq 0 ] && echo "check_test_programs: $checked programs, each from an installed-by-script or base package"
exit "$status"
