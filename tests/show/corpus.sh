#!/usr/bin/env bash
# `evtool show` against the reference outputs of the corpus: every
# X.eventlog.reference in CORPUS is the exact output of `ghc-events show
# X.eventlog` (doc/format.md section 7); evtool must print the same bytes.
# Logs without a reference (GHC 6.12, a truncated one) must show without
# an error other than the truncation (exit 0 or 3) and list every event.
#
#   tests/show/corpus.sh EVTOOL CORPUS
#
# Exits 77 (skipped) when CORPUS does not exist, 1 on any difference.
set -uo pipefail
evtool=$1 corpus=$2
if [ ! -d "$corpus" ]; then
  echo "skip: no corpus at $corpus"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
shopt -s nullglob
for ref in "$corpus"/*.eventlog.reference; do
  log=${ref%.reference}
  if ! "$evtool" show "$log" >"$tmp/out.txt" 2>"$tmp/err.txt"; then
    echo "FAIL $log: exit $?: $(head -c 300 "$tmp/err.txt")"
    failed=$((failed + 1))
  elif ! cmp "$ref" "$tmp/out.txt" >"$tmp/cmp.txt" 2>&1; then
    echo "FAIL $log: $(cat "$tmp/cmp.txt")"
    diff "$ref" "$tmp/out.txt" | head -n 6
    failed=$((failed + 1))
  else
    echo "ok $log"
    passed=$((passed + 1))
  fi
done
for log in "$corpus"/*.eventlog; do
  [ -f "$log.reference" ] && continue
  rc=0
  "$evtool" show "$log" >"$tmp/out.txt" 2>"$tmp/err.txt" || rc=$?
  # one line per event: block markers take two (their text ends in \n)
  want=$("$evtool" info "$log" 2>/dev/null |
         sed -n 's/^  events *\([0-9]*\) in \([0-9]*\) blocks.*/\1 \2/p')
  lines=$(sed -n '/^Events:$/,$p' "$tmp/out.txt" | grep -c '^[0-9]*: ')
  set -- $want
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    echo "FAIL $log: exit $rc: $(head -c 300 "$tmp/err.txt")"
    failed=$((failed + 1))
  elif [ "$lines" != "$(( ${1:-0} + ${2:-0} ))" ]; then
    echo "FAIL $log: $lines event lines, evtool info counts $want"
    failed=$((failed + 1))
  else
    echo "ok $log (no reference: $lines events and blocks, exit $rc)"
    passed=$((passed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
