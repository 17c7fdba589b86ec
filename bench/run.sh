#!/usr/bin/env bash
# Throughput and peak memory of evtool on a large real eventlog.
#
#   bash bench/run.sh [LOG] [EVTOOL]
#
# LOG defaults to bench/work/large.eventlog, made by make-large-log.sh
# (600 MB, needs ghc) when missing. EVTOOL defaults to build/evtool
# (build it with `bash .ci/setup`). Each command runs 3 times on the
# page-cached file; the best wall time is reported, with the peak
# resident memory (GNU time's maximum RSS) of that run. Plain `cat` of
# the same file to /dev/null is the physical floor.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
log=${1:-$here/work/large.eventlog}
evtool=${2:-$here/../build/evtool}
runs=${RUNS:-3}
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
[ -x "$evtool" ] || { echo "bench: no $evtool; run: bash .ci/setup" >&2; exit 1; }
if [ ! -f "$log" ]; then
    mkdir -p "$(dirname "$log")"
    bash "$here/make-large-log.sh" "$log" 600
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bytes=$(stat -c %s "$log")
events=$("$evtool" info --json "$log" | sed -n 's/^ *"events": \([0-9]*\),$/\1/p' | head -n 1)
cat "$log" > /dev/null # warm the page cache

# measure NAME COMMAND...: best of $runs, prints one table row
measure() {
    local name=$1 best="" best_rss=0; shift
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>"$work/err" ||
            { [ $? -eq 3 ] || { cat "$work/err" >&2; return 1; }; }
        read -r secs rss < "$work/time"
        if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then
            best=$secs best_rss=$rss
        fi
    done
    awk -v n="$name" -v s="$best" -v b="$bytes" -v e="$events" -v r="$best_rss" \
        'BEGIN { if (s < 0.005) s = 0.005;
                 printf "%-26s %8.2f s %9.0f MB/s %8.1f Mev/s %8.1f MB peak\n",
                        n, s, b / s / 1e6, e / s / 1e6, r / 1024 }'
}

printf 'log: %s (%.1f MB, %s events)\n' "$log" "$(echo "$bytes / 1000000" | bc -l)" "$events"
printf 'machine: %s, %s cores, %s\n' "$(uname -m)" "$(nproc)" \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
# Floors: reading the file, and copying it (page cache, no fsync; evtool
# cat syncs its output before renaming it into place, so it pays the disk).
measure "read floor (dd)"        dd if="$log" of=/dev/null bs=1M
measure "copy floor (cp)"        cp "$log" "$work/copy.eventlog"
measure "evtool info"            "$evtool" info "$log"
measure "evtool cat -o - >null"  "$evtool" cat "$log" -o -
measure "evtool cat -o FILE"     "$evtool" cat "$log" -o "$work/out.eventlog"
measure "evtool cat --reblock"   "$evtool" cat --reblock "$log" -o -
