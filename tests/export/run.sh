#!/usr/bin/env bash
# The exports of every testdata log, checked by independent readers:
#
#   run.sh tef EVTOOL TESTDATA      every perfetto export (and that of a
#                                   merged two-process log) passes
#                                   tef_check.py's Trace Event Format rules
#   run.sh hp-rts EVTOOL TESTDATA   for each run whose RTS .hp is kept
#                                   (NAME.hp), the hp export holds the same
#                                   samples, bands and values (hp_compare.py)
#   run.sh hp2ps EVTOOL TESTDATA    hp2ps renders every hp export without a
#                                   word on standard error (77: no hp2ps)
#
# Logs with nothing for a format are expected to be refused with exit 1.
set -euo pipefail
mode=$1 evtool=$2 data=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/evtool-export.XXXXXX")
trap 'rm -rf "$work"' EXIT

# export FORMAT LOG OUT: 0 written, 1 nothing for the format (no OUT);
# a truncated log (exit 3) counts as written.
export_log() {
  local rc=0
  "$evtool" export --format "$1" "$2" -o "$3" 2>"$work/err" || rc=$?
  if [[ $rc == 3 && -s "$3" ]]; then rc=0; fi
  if [[ $rc == 1 && ! -e "$3" ]]; then return 1; fi
  if [[ $rc != 0 ]]; then
    echo "export --format $1 $2: exit $rc" >&2; cat "$work/err" >&2; exit 1
  fi
}

logs=("$data"/*.eventlog "$data"/*.eventlog.gz)
case $mode in
tef)
  "$evtool" merge "$data/merge-a.eventlog" "$data/merge-b.eventlog" \
    -o "$work/merged.eventlog"
  outs=()
  for log in "${logs[@]}" "$work/merged.eventlog"; do
    out="$work/$(basename "$log").json"
    export_log perfetto "$log" "$out"
    outs+=("$out")
  done
  python3 "$here/tef_check.py" "${outs[@]}"
  ;;
hp-rts)
  n=0
  for hp in "$data"/*.hp; do
    log=${hp%.hp}.eventlog
    export_log hp "$log" "$work/out.hp"
    python3 "$here/hp_compare.py" "$hp" "$work/out.hp"
    n=$((n + 1))
  done
  (( n >= 2 )) || { echo "fewer than 2 runs with their .hp in $data" >&2; exit 1; }
  ;;
hp2ps)
  command -v hp2ps >/dev/null || { echo "no hp2ps: skipped"; exit 77; }
  n=0
  for log in "${logs[@]}"; do
    name=$(basename "$log")
    export_log hp "$log" "$work/$name.hp" || continue
    (cd "$work" && hp2ps -c "$name.hp" 2>"$work/hp2ps.err") ||
      { echo "hp2ps $name.hp failed" >&2; cat "$work/hp2ps.err" >&2; exit 1; }
    if [[ -s "$work/hp2ps.err" ]]; then
      echo "hp2ps $name.hp warned:" >&2; cat "$work/hp2ps.err" >&2; exit 1
    fi
    [[ -s "$work/$name.ps" ]] || { echo "hp2ps wrote no $name.ps" >&2; exit 1; }
    echo "ok $name: $(grep -c '^BEGIN_SAMPLE' "$work/$name.hp") samples rendered"
    n=$((n + 1))
  done
  (( n >= 3 )) || { echo "fewer than 3 logs with a heap profile in $data" >&2; exit 1; }
  ;;
*)
  echo "usage: run.sh tef|hp-rts|hp2ps EVTOOL TESTDATA" >&2; exit 2
  ;;
esac
