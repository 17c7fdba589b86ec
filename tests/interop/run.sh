#!/usr/bin/env bash
# Interop check: logs written by evtool must read, with the ghc-events library,
# as the same events as their input (see EvCheck.hs for what "same" means and
# how ghc-events assigns caps).
#
#   tests/interop/run.sh EVTOOL BUILD_DIR [LOG_DIR...]
#
# EVTOOL     the evtool binary to test
# BUILD_DIR  where evcheck is built (objects and binary; never the source tree)
# LOG_DIR    folders whose *.eventlog are checked; default: testdata/ and the
#            corpus ($EVTOOL_CORPUS, else ../shared/corpus beside the repo)
#            when it exists
#
# For every log that ghc-events can read; a truncated one gets only the
# reblock check, with exit status 3:
#   cat      EVTOOL cat LOG -o a.eventlog: byte-identical to LOG, and
#            `evcheck same LOG a.eventlog`
#   reblock  EVTOOL cat --reblock LOG -o b.eventlog:
#            `evcheck same-per-cap LOG b.eventlog`
# Prints one line per check, then "N passed, M failed"; exits 1 if any check
# failed, 2 on a setup error (no evtool, no ghc, build failure).
set -euo pipefail

usage() {
  echo "usage: $0 EVTOOL BUILD_DIR [LOG_DIR...]" >&2
  exit 2
}

[ $# -ge 2 ] || usage
evtool=$1
build=$2
shift 2

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ $# -eq 0 ]; then
  set -- "$repo/testdata"
  corpus=${EVTOOL_CORPUS:-$repo/../shared/corpus}
  if [ -d "$corpus" ]; then
    set -- "$@" "$(cd "$corpus" && pwd)"
  fi
fi

if ! command -v "$evtool" >/dev/null 2>&1; then
  echo "run.sh: evtool not found or not executable: $evtool" >&2
  exit 2
fi

# Without GHC and ghc-events the check cannot run: skip (exit 77, which
# ctest reports as skipped) unless EVTOOL_REQUIRE_INTEROP=1, as in CI.
if ! command -v ghc >/dev/null 2>&1 || ! ghc-pkg --simple-output list ghc-events 2>/dev/null | grep -q ghc-events; then
  if [ "${EVTOOL_REQUIRE_INTEROP:-0}" = 1 ]; then
    echo "run.sh: ghc and the ghc-events library are required (apt-get install ghc libghc-ghc-events-dev)" >&2
    exit 2
  fi
  echo "skip: ghc or ghc-events not installed"
  exit 77
fi

# Build evcheck unless the binary is newer than its source.
mkdir -p "$build"
evcheck="$build/evcheck"
if [ ! -x "$evcheck" ] || [ "$here/EvCheck.hs" -nt "$evcheck" ]; then
  echo "building $evcheck"
  if ! ghc -O1 "$here/EvCheck.hs" -outputdir "$build" -o "$evcheck" \
       >"$build/ghc.log" 2>&1; then
    cat "$build/ghc.log" >&2
    echo "run.sh: building evcheck failed" >&2
    exit 2
  fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0

# Output of a command squeezed onto one line, for a FAIL reason.
one_line() {
  tr '\n\t' '  ' <"$1" | tr -s ' ' | sed "s|$tmp/||g; s/^ //; s/ \$//" | cut -c1-800
}

# True when evtool info calls the log complete (it ends with the data end).
is_complete() {
  "$evtool" info "$1" 2>/dev/null | grep -q '^  status *complete$'
}

pass() {
  echo "ok $1 $2"
  passed=$((passed + 1))
}

fail() {
  echo "FAIL $1 $2: $3"
  failed=$((failed + 1))
}

check_cat() {
  local log=$1 out="$tmp/a.eventlog" rc=0 reason=""
  rm -f "$out"
  "$evtool" cat "$log" -o "$out" >"$tmp/evtool.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    fail cat "$log" "evtool cat exited $rc: $(one_line "$tmp/evtool.txt")"
    return
  fi
  if [ ! -f "$out" ]; then
    fail cat "$log" "evtool cat wrote no output file"
    return
  fi
  if ! cmp "$log" "$out" >"$tmp/cmp.txt" 2>&1; then
    reason="not byte-identical ($(one_line "$tmp/cmp.txt"))"
  fi
  rc=0
  "$evcheck" same "$log" "$out" >"$tmp/same.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    reason="${reason:+$reason; }evcheck same exited $rc: $(one_line "$tmp/same.txt")"
  fi
  if [ -n "$reason" ]; then
    fail cat "$log" "$reason"
  else
    pass cat "$log"
  fi
}

# A truncated input is re-blocked too: evtool keeps its complete events
# and exits 3; ghc-events must read the same complete events from both.
check_reblock() {
  local log=$1 want_rc=$2 out="$tmp/b.eventlog" rc=0
  rm -f "$out"
  "$evtool" cat --reblock "$log" -o "$out" >"$tmp/evtool.txt" 2>&1 || rc=$?
  if [ "$rc" -ne "$want_rc" ]; then
    fail reblock "$log" "evtool cat --reblock exited $rc: $(one_line "$tmp/evtool.txt")"
    return
  fi
  if [ ! -f "$out" ]; then
    fail reblock "$log" "evtool cat --reblock wrote no output file"
    return
  fi
  rc=0
  "$evcheck" same-per-cap "$log" "$out" >"$tmp/same.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    fail reblock "$log" "evcheck same-per-cap exited $rc: $(one_line "$tmp/same.txt")"
  else
    pass reblock "$log"
  fi
}

shopt -s nullglob
for dir in "$@"; do
  if [ ! -d "$dir" ]; then
    echo "skip (no such folder): $dir"
    continue
  fi
  for log in "$dir"/*.eventlog; do
    if ! "$evcheck" count "$log" >/dev/null 2>"$tmp/count.txt"; then
      echo "skip (ghc-events cannot read): $log"
      continue
    fi
    if is_complete "$log"; then
      check_cat "$log"
      check_reblock "$log" 0
    else
      check_reblock "$log" 3
    fi
  done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
