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
#
# The peers run in the same run on the same file, and rows compared with
# one say so: "x0.42 of PEER" is evtool's throughput over the peer's
# (above 1: evtool is faster). The pairs whose ratio is a target (merge
# of 100 small logs against cat of them; reading gzip against pigz -d)
# are also run interleaved (duel: A, B, A, B, ...; best of DUEL_RUNS,
# default 5), so that both see the same load on a shared machine (an
# evtool built with -DEVTOOL_ISAL=ON reads one-member gzip with ISA-L,
# bench/README.md). Peers: gzip -6, pigz -6 -p 2 and pigz -d
# for archives and gzip input; the ghc-events library (bench/src/
# GhcEventsBench.hs, built here into a temporary folder with ghc and
# libghc-ghc-events-dev; skipped when they are missing) for reading, show
# and merge. PEERS_ONLY=1 runs those comparisons alone; SHOW_ONLY=1 the
# show section alone; EXPORT_ONLY=1 the export rows, cat and the
# interleaved cat/sort/export ratios alone;
# REPORT_ONLY=1 the report row alone; THREADS_ONLY=1 the parallel rows
# alone (below).
# SPANS_ONLY=1: stats against stats --spans (issue 27) alone, on a log of
# the user's spans (default bench/work/spans.eventlog, 200 MB, made by
# PROGRAM=spanstorm make-large-log.sh when missing).
#
# Reading in parallel (--threads, doc/evtool.1 "Reading in parallel"):
# each command that reads in parallel runs with -T 1, 2, 4 and N (the
# cores, as nproc counts them; a count above N gets a row "n/a: the
# machine has N cores" instead of figures), interleaved (1, 2, 4, N, 1,
# 2, ...; THREAD_RUNS rounds, default 7) so that the load of a shared
# machine weighs on each alike. Printed per thread count: the median
# wall time, its speed-up over -T 1's median (the target on 2 cores:
# x1.70), the median CPU time (user + system), the peak resident memory
# and that peak per worker (peak / T; target: at most 32 MB, whatever
# the log's size).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${SPANS_ONLY:-0}" = 1 ]; then
    log=${1:-$here/work/spans.eventlog}
    if [ ! -f "$log" ]; then
        mkdir -p "$(dirname "$log")"
        PROGRAM=spanstorm bash "$here/make-large-log.sh" "$log" 200
    fi
fi
log=${1:-${log:-$here/work/large.eventlog}}
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

# measure NAME COMMAND...: best of $runs, prints one table row; the best
# time is left in $work/last.<NAME> for `versus`
measure() {
    local name=$1 best="" best_rss=0; shift
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>"$work/err" ||
            { [ $? -eq 3 ] || { cat "$work/err" >&2; return 1; }; }
        # GNU time puts "Command exited with non-zero status 3" first
        read -r secs rss < <(tail -n 1 "$work/time")
        if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then
            best=$secs best_rss=$rss
        fi
    done
    echo "$best" > "$work/last.${name//[^A-Za-z0-9]/_}"
    awk -v n="$name" -v s="$best" -v b="$bytes" -v e="$events" -v r="$best_rss" \
        'BEGIN { if (s < 0.005) s = 0.005;
                 printf "%-26s %8.2f s %9.0f MB/s %8.1f Mev/s %8.1f MB peak\n",
                        n, s, b / s / 1e6, e / s / 1e6, r / 1024 }'
}

# cat, sort and export of the log to /dev/null in turn, $runs rounds, so
# that other work on the machine weighs on the three alike: the best wall
# time of each and the ratios of issues 19 (sort at least x0.80 of cat)
# and 17 (export at least x0.50)
interleaved_ratios() {
    local c
    : > "$work/inter"
    for _ in $(seq "$runs"); do
        for c in cat sort export; do
            /usr/bin/time -f "$c %e" -a -o "$work/inter" \
                "$evtool" "$c" "$log" -o - >/dev/null 2>&1
        done
    done
    awk '{ if (!($1 in w) || $2 < w[$1]) w[$1] = $2 }
         END { for (c in w) if (w[c] < 0.005) w[c] = 0.005
               printf "  interleaved, best of %d: cat %.2f s, sort %.2f s (x%.2f of cat), export %.2f s (x%.2f of cat)\n",
                      NR / 3, w["cat"], w["sort"], w["cat"] / w["sort"],
                      w["export"], w["cat"] / w["export"] }' "$work/inter"
}

# versus NAME PEER: NAME's throughput over PEER's, both measured before
# on the same bytes (above 1: NAME is faster)
versus() {
    local a b
    a=$(cat "$work/last.${1//[^A-Za-z0-9]/_}") b=$(cat "$work/last.${2//[^A-Za-z0-9]/_}")
    awk -v a="$a" -v b="$b" -v n="$1" -v p="$2" 'BEGIN {
        if (a < 0.005) a = 0.005; if (b < 0.005) b = 0.005;
        printf "  %-40s x%.2f of %s\n", n, b / a, p }'
}

# duel NAME_A FN_A NAME_B FN_B: runs the shell functions FN_A and FN_B
# one after the other, DUEL_RUNS times (default 5), so that both see the
# same load, and prints the best wall time of each (bash's EPOCHREALTIME,
# microseconds) and A's throughput over B's (above 1: A is faster)
duel() {
    local best_a="" best_b="" fn t0 t side
    for _ in $(seq "${DUEL_RUNS:-5}"); do
        for side in a b; do
            if [ "$side" = a ]; then fn=$2; else fn=$4; fi
            t0=$EPOCHREALTIME
            "$fn" >/dev/null 2>"$work/err" ||
                { [ $? -eq 3 ] || { cat "$work/err" >&2; return 1; }; }
            t=$(echo "$EPOCHREALTIME - $t0" | bc -l)
            if [ "$side" = a ]; then
                if [ -z "$best_a" ] || awk "BEGIN{exit !($t < $best_a)}"; then best_a=$t; fi
            elif [ -z "$best_b" ] || awk "BEGIN{exit !($t < $best_b)}"; then
                best_b=$t
            fi
        done
    done
    awk -v na="$1" -v nb="$3" -v a="$best_a" -v b="$best_b" -v n="${DUEL_RUNS:-5}" 'BEGIN {
        printf "  %-36s %7.3f s  %-24s %7.3f s  x%.2f (interleaved, best of %d)\n",
               na, a, nb, b, b / a, n }'
}

# threads_rows NAME ARGS...: evtool ARGS -T t LOG for t in 1 2 4 N,
# interleaved, THREAD_RUNS rounds; medians (see the head of this file)
# (exit 3, data dropped, is a run like another; so is exit 1 for a
# command named in threads_exit_1, e.g. export --format hp of a log
# without a heap profile: it reads the whole log before it says so)
threads_rows() {
    local name=$1 t counts="" absent="" n rc
    shift
    n=$(nproc)
    for t in 1 2 4 "$n"; do
        case " $counts $absent " in *" $t "*) continue ;; esac
        if [ "$t" -le "$n" ]; then counts="$counts $t"; else absent="$absent $t"; fi
    done
    : > "$work/threads"
    for _ in $(seq "${THREAD_RUNS:-7}"); do
        for t in $counts; do
            rc=0
            /usr/bin/time -f "$t %e %U %S %M" -a -o "$work/threads" \
                "$evtool" "$@" -T "$t" "$log" >/dev/null 2>&1 || rc=$?
            [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] ||
                { [ "$rc" -eq 1 ] && [ "${threads_exit_1:-}" = "$name" ]; } ||
                { echo "bench: evtool $* -T $t failed" >&2; return 1; }
        done
    done
    grep -v '^Command' "$work/threads" | sort -k1,1n -k2,2n | awk -v name="$name" -v e="$events" '
        { t = $1; wall[t, ++n[t]] = $2; cpu[t, n[t]] = $3 + $4
          if ($5 > rss[t]) rss[t] = $5; if (!(t in seen)) { seen[t] = 1; order[++k] = t } }
        function median(a, t,   m, i, j, x, v) {
            m = n[t]; for (i = 1; i <= m; i++) v[i] = a[t, i]
            for (i = 2; i <= m; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
            return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
        END { one = median(wall, 1); if (one < 0.005) one = 0.005
              for (i = 1; i <= k; i++) { t = order[i]; w = median(wall, t); if (w < 0.005) w = 0.005
                  printf "  %-26s -T %-3s %7.3f s %8.1f Mev/s  x%.2f of -T 1  cpu %6.3f s  %7.1f MB peak %6.1f MB/worker  (median of %d)\n",
                         name, t, w, e / w / 1e6, one / w, median(cpu, t), rss[t] / 1024, rss[t] / 1024 / t, n[t] } }'
    for t in $absent; do
        printf '  %-26s -T %-3s n/a: the machine has %s cores\n' "$name" "$t" "$n"
    done
}

printf 'log: %s (%.1f MB, %s events)\n' "$log" "$(echo "$bytes / 1000000" | bc -l)" "$events"
printf 'machine: %s, %s cores, %s\n' "$(uname -m)" "$(nproc)" \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
printf 'load average at the start: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
trap 'printf "load average at the end: %s\n" "$(cut -d" " -f1-3 /proc/loadavg)"; rm -rf "$work"' EXIT
# stats --spans (issue 27): pairing the user's START/STOP messages and
# markers costs no more than the rest of stats; both interleaved.
if [ "${SPANS_ONLY:-0}" = 1 ]; then
    measure "evtool stats"               "$evtool" stats "$log"
    measure "evtool stats --spans=all"   "$evtool" stats --spans=all "$log"
    plain_stats() { "$evtool" stats "$log"; }
    spans_stats() { "$evtool" stats --spans=all "$log"; }
    duel "stats --spans=all" spans_stats "stats" plain_stats
    exit 0
fi
# Floors: reading the file (dd, and plain cat to /dev/null), and copying it (page cache, no fsync; evtool
# cat syncs its output before renaming it into place, so it pays the disk).
parallel_rows() {
    printf 'reading in parallel (%s rounds, interleaved):\n' "${THREAD_RUNS:-7}"
    threads_rows "evtool info" info
    threads_rows "evtool filter --class gc" filter --class gc -o /dev/null
    threads_rows "evtool cat -o - >null" cat -o -
    threads_rows "evtool validate" validate --no-progress
    threads_rows "evtool validate --no-semantics" validate --no-progress \
        --no-semantics
    threads_rows "evtool stats" stats
    threads_rows "evtool stats --threads --caps" stats --threads --caps
    # export: hp and speedscope pick their events in parallel, perfetto
    # is sequential at every -T (doc/evtool.1, export -T); on a log
    # without a heap profile hp reads it all, then exits 1.
    threads_exit_1="evtool export --format hp"
    threads_rows "evtool export --format hp" export --format hp -o -
    threads_exit_1=
    threads_rows "evtool export (perfetto)" export -o -
}
if [ "${THREADS_ONLY:-0}" = 1 ]; then
    parallel_rows
    exit 0
fi
if [ "${SHOW_ONLY:-0}" != 1 ] && [ "${PEERS_ONLY:-0}" != 1 ] &&
   [ "${EXPORT_ONLY:-0}" != 1 ] && [ "${REPORT_ONLY:-0}" != 1 ]; then
measure "read floor (dd)"        dd if="$log" of=/dev/null bs=1M
measure "plain cat >null"        cat "$log"
measure "copy floor (cp)"        cp "$log" "$work/copy.eventlog"
measure "evtool info -T 1"       "$evtool" info -T 1 "$log"
parallel_rows
measure "evtool cat -o - >null"  "$evtool" cat "$log" -o -
measure "evtool cat -o FILE"     "$evtool" cat "$log" -o "$work/out.eventlog"
measure "evtool cat --reblock"   "$evtool" cat --reblock "$log" -o -

# filter and sort (issue 5). filter keeping a small class, then with a time
# window too (which needs a learning pass: the log is read twice). sort
# merging the capabilities' streams in place; from standard input (copied
# to a temporary file first, then merged in place); with the external sort
# forced (sorted runs spilled to a temporary file and merged).
measure "evtool filter --class gc" "$evtool" filter --class gc "$log" -o -
measure "evtool filter gc 1s window" \
    "$evtool" filter --class gc --from 1s --to 2s "$log" -o -
measure "evtool sort -o - >null"   "$evtool" sort "$log" -o -
measure "evtool cat -o - >null"  "$evtool" cat "$log" -o -
versus "evtool sort -o - >null" "evtool cat -o - >null"
measure "evtool sort -o FILE"      "$evtool" sort "$log" -o "$work/sorted.eventlog"
measure "evtool sort - (stdin)" \
    sh -c '"$1" sort --tmpdir "$3" - -o - < "$2"' sh "$evtool" "$log" "$work"
measure "evtool sort --method external" \
    "$evtool" sort --method external --tmpdir "$work" "$log" -o -
rm -f "$work/sorted.eventlog"

# validate (issue 3): every check, then structure and ordering alone; the
# difference is what the thread, GC, task and heap-sample checks cost (in
# one thread: -T 1; the parallel rows above give the others).
measure "evtool validate -T 1"   "$evtool" validate -T 1 "$log"
measure "evtool validate (no sem.)" "$evtool" validate -T 1 --no-semantics "$log"

# truncate: the log cut 1,000,000 bytes before its end, so that its last
# 2 MiB block is partial (a killed program's log, or a copy cut short);
# the rows' MB/s are of the cut log's size. It should cost little more
# than cat, which copies the same way.
cut_bytes=$((bytes - 1000000))
head -c "$cut_bytes" "$log" > "$work/cut.eventlog"
bytes=$cut_bytes measure "evtool truncate -o - >null" \
    "$evtool" truncate -q "$work/cut.eventlog" -o -
bytes=$cut_bytes measure "evtool truncate -o FILE" \
    "$evtool" truncate -q "$work/cut.eventlog" -o "$work/fixed.eventlog"
rm -f "$work/cut.eventlog" "$work/fixed.eventlog"

# archive (issue 6): evtool archive at 1 and 2 threads next to gzip -6 and
# gzip -1 on the same file; the last column is the compressed size as a
# percentage of the log. evtool archive validates and hashes the log
# first and syncs its output; gzip writes through the page cache.
measure_ratio() { # NAME OUT COMMAND...: a measure row and OUT's ratio
    local name=$1 out=$2 row; shift 2
    row=$(measure "$name" "$@")
    printf '%s %6.2f %% of the log\n' "$row" \
        "$(echo "100 * $(stat -c %s "$out") / $bytes" | bc -l)"
}
measure_ratio "gzip -6" "$work/gzip6.gz" \
    sh -c 'gzip -6 -c "$1" > "$2"' sh "$log" "$work/gzip6.gz"
measure_ratio "gzip -1" "$work/gzip1.gz" \
    sh -c 'gzip -1 -c "$1" > "$2"' sh "$log" "$work/gzip1.gz"
measure_ratio "evtool archive --threads 1" "$work/a1.gz" \
    "$evtool" archive --force --threads 1 "$log" -o "$work/a1.gz"
measure_ratio "evtool archive --threads 2" "$work/a2.gz" \
    "$evtool" archive --force --threads 2 "$log" -o "$work/a2.gz"
measure_ratio "evtool archive --threads 2 --level 1" "$work/a2l1.gz" \
    "$evtool" archive --force --threads 2 --level 1 "$log" -o "$work/a2l1.gz"
rm -f "$work"/gzip[16].gz "$work"/a1.gz "$work"/a2.gz "$work"/a2l1.gz

# merge (issue 4): two large inputs (the log twice: the copy becomes a
# second process, every task id colliding), then 100 small ones (copies of
# ten testdata logs). MB/s and Mev/s are of the inputs; merge reads each
# input twice (a planning pass, then the copy).
bytes=$((2 * bytes)) events=$((2 * events)) \
    measure "evtool merge 2 large -o - >null" "$evtool" merge "$log" "$log" -o -
bytes=$((2 * bytes)) events=$((2 * events)) \
    measure "evtool merge 2 large -o FILE" \
    "$evtool" merge "$log" "$log" -o "$work/merged.eventlog"
rm -f "$work/merged.eventlog"
mkdir -p "$work/small"
for n in $(seq 10); do
    for f in gc-n2 threads-n1 threads-n2 threads-n4 sparks-n2 user-n1 \
             nonmoving-n2 merge-a merge-b merge-c; do
        cp "$here/../testdata/$f.eventlog" "$work/small/$n-$f.eventlog"
    done
done
small_bytes=$(cat "$work"/small/*.eventlog | wc -c)
small_events=$("$evtool" info --json "$work"/small/*.eventlog |
    sed -n 's/^      "events": \([0-9]*\),$/\1/p' | paste -sd+ | bc)
# one merge takes about 10 ms, GNU time's resolution: a row is 10 runs
bytes=$((10 * small_bytes)) events=$((10 * small_events)) \
    measure "evtool merge 100 small -o - x10" sh -c \
    'for i in 1 2 3 4 5 6 7 8 9 10; do "$1" merge "$2"/small/*.eventlog -o - || exit; done' \
    sh "$evtool" "$work"
bytes=$((10 * small_bytes)) events=$((10 * small_events)) \
    measure "evtool cat 100 small -o - x10" sh -c \
    'for i in 1 2 3 4 5 6 7 8 9 10; do "$1" cat "$2"/small/*.eventlog -o - || exit; done' \
    sh "$evtool" "$work"
versus "evtool merge 100 small -o - x10" "evtool cat 100 small -o - x10"
small_merge() { for _ in 1 2 3 4 5 6 7 8 9 10; do "$evtool" merge "$work"/small/*.eventlog -o - || return; done; }
small_cat() { for _ in 1 2 3 4 5 6 7 8 9 10; do "$evtool" cat "$work"/small/*.eventlog -o - || return; done; }
duel "evtool merge 100 small x10" small_merge "evtool cat 100 small x10" small_cat
bytes=$((10 * small_bytes)) events=$((10 * small_events)) \
    measure "evtool merge 100 small -o FILE x10" sh -c \
    'for i in 1 2 3 4 5 6 7 8 9 10; do "$1" merge "$2"/small/*.eventlog -o "$2/merged.eventlog" || exit; done' \
    sh "$evtool" "$work"
rm -rf "$work/small" "$work/merged.eventlog"
fi # SHOW_ONLY, PEERS_ONLY, EXPORT_ONLY

if [ "${SHOW_ONLY:-0}" != 1 ] && [ "${EXPORT_ONLY:-0}" != 1 ] &&
   [ "${REPORT_ONLY:-0}" != 1 ]; then
# ---- peers in the same run (issue 19) ----
# Archive: gzip -6, pigz -6 -p 2 and evtool archive (default level 6,
# validated and hashed first, synced and read back after) on the same
# file; the last column is the size against gzip -6's.
echo "== archive: evtool beside gzip and pigz"
gz6=$work/peer-gzip6.gz pz6=$work/peer-pigz6.gz ev6=$work/peer-evtool.gz
measure "copy floor (cp)" cp "$log" "$work/copy.eventlog"
rm -f "$work/copy.eventlog"
measure "gzip -6" sh -c 'gzip -6 -c "$1" > "$2"' sh "$log" "$gz6"
measure "pigz -6 -p 2" sh -c 'pigz -6 -p 2 -c "$1" > "$2"' sh "$log" "$pz6"
measure "evtool archive --threads 2" \
    "$evtool" archive --force --threads 2 "$log" -o "$ev6"
measure "evtool archive --threads 2 -o -" \
    sh -c '"$1" archive --force --threads 2 "$2" -o - > "$3"' sh "$evtool" "$log" "$ev6"
# (one thread writes the same bytes as two)
measure "evtool archive --threads 1" \
    "$evtool" archive --force --threads 1 "$log" -o "$ev6"
versus "evtool archive --threads 2" "pigz -6 -p 2"
versus "evtool archive --threads 2 -o -" "pigz -6 -p 2"
versus "evtool archive --threads 2" "gzip -6"
versus "evtool archive --threads 1" "gzip -6"
for f in "$gz6" "$pz6" "$ev6"; do
    printf '  size %-22s %11d bytes, %6.2f %% of the log, x%.4f of gzip -6\n' \
        "$(basename "$f")" "$(stat -c %s "$f")" \
        "$(echo "100 * $(stat -c %s "$f") / $bytes" | bc -l)" \
        "$(echo "$(stat -c %s "$f") / $(stat -c %s "$gz6")" | bc -l)"
done

# Reading gzip: pigz -d beside evtool's gzip input (cat), --test and
# --extract, on the archives of evtool, gzip and pigz. MB/s are of the log.
echo "== reading gzip: evtool beside pigz -d"
gz_pigz() { pigz -d -c "$gz"; }
gz_cat() { "$evtool" cat "$gz" -o -; }
gz_test() { "$evtool" archive --test "$gz"; }
gz_extract() { "$evtool" archive --extract --force "$gz" -o "$work/x.eventlog"; }
for f in "$ev6" "$gz6" "$pz6"; do
    k=$(basename "$f" .gz)
    measure "pigz -d $k" sh -c 'pigz -d -c "$1" > /dev/null' sh "$f"
    measure "evtool cat $k -o - >null" "$evtool" cat "$f" -o -
    measure "evtool archive --test $k" "$evtool" archive --test "$f"
    measure "evtool archive --extract $k" \
        "$evtool" archive --extract --force "$f" -o "$work/x.eventlog"
    versus "evtool cat $k -o - >null" "pigz -d $k"
    versus "evtool archive --test $k" "pigz -d $k"
    versus "evtool archive --extract $k" "pigz -d $k"
    gz=$f
    duel "evtool cat $k -o - >null" gz_cat "pigz -d $k" gz_pigz
    duel "evtool archive --test $k" gz_test "pigz -d $k" gz_pigz
    duel "evtool archive --extract $k" gz_extract "pigz -d $k" gz_pigz
done
rm -f "$gz6" "$pz6" "$ev6" "$work/x.eventlog"

# The ghc-events library: reading, show and merge, on a prefix of
# PEER_PREFIX_MB megabytes (default 64: ghc-events holds every event, about
# 12 bytes of memory per byte of log), cut with evtool truncate --bytes.
# merge keeps the timestamps as ghc-events does (--align none).
peer=$work/ghc-events-bench
if command -v ghc >/dev/null 2>&1 &&
   ghc -v0 -O1 "$here/src/GhcEventsBench.hs" -outputdir "$work/hs" \
       -o "$peer" >"$work/ghc.log" 2>&1; then
    echo "== ghc-events beside evtool"
    pfx=$work/peer.eventlog
    "$evtool" truncate -q --bytes "${PEER_PREFIX_MB:-64}000000" "$log" -o "$pfx"
    pbytes=$(stat -c %s "$pfx")
    pevents=$("$evtool" info --json "$pfx" | sed -n 's/^ *"events": \([0-9]*\),$/\1/p' | head -n 1)
    bytes=$pbytes events=$pevents runs=1 measure "ghc-events read" "$peer" read "$pfx"
    bytes=$pbytes events=$pevents measure "evtool info (reads all)" "$evtool" info "$pfx"
    bytes=$pbytes events=$pevents measure "evtool validate" "$evtool" validate -T 1 "$pfx"
    bytes=$pbytes events=$pevents runs=1 measure "ghc-events show" "$peer" show "$pfx"
    bytes=$pbytes events=$pevents measure "evtool show" "$evtool" show "$pfx"
    bytes=$((2 * pbytes)) events=$((2 * pevents)) runs=1 \
        measure "ghc-events merge 2" "$peer" merge "$work/m.eventlog" "$pfx" "$pfx"
    bytes=$((2 * pbytes)) events=$((2 * pevents)) \
        measure "evtool merge 2" "$evtool" merge --align none "$pfx" "$pfx" -o "$work/m.eventlog"
    versus "evtool info (reads all)" "ghc-events read"
    versus "evtool validate" "ghc-events read"
    versus "evtool show" "ghc-events show"
    versus "evtool merge 2" "ghc-events merge 2"
    rm -f "$pfx" "$work/m.eventlog"
else
    echo "== ghc-events: skipped (no ghc, or building bench/src/GhcEventsBench.hs failed)"
fi
fi # SHOW_ONLY, EXPORT_ONLY
[ "${PEERS_ONLY:-0}" = 1 ] && exit 0

# export (issue 17): the perfetto JSON of the whole log next to evtool cat
# (the target: at least half of cat's speed, under 64 MB). export reads the
# events in time order through the sorter, like show. EXPORT_ONLY=1 runs
# these rows and the cat row alone.
if [ "${SHOW_ONLY:-0}" != 1 ] && [ "${REPORT_ONLY:-0}" != 1 ]; then
if [ "${EXPORT_ONLY:-0}" = 1 ]; then
measure "evtool cat -o - >null"  "$evtool" cat "$log" -o -
fi
measure "evtool export >null"        "$evtool" export "$log"
versus "evtool export >null" "evtool cat -o - >null"
measure "evtool export -o FILE"      "$evtool" export "$log" -o "$work/out.json"
rm -f "$work/out.json"
interleaved_ratios
fi
[ "${EXPORT_ONLY:-0}" = 1 ] && exit 0

# show (issue 7): evtool show of the whole log, text and NDJSON, to
# /dev/null, next to the ghc-events library's show (the `ghc-events show`
# executable). ghc-events holds every event in memory (about 12 bytes of
# memory per byte of log, so some 8 GB for the whole large log), so the
# comparison runs on a prefix of SHOW_PREFIX_MB megabytes (default 64; 0
# compares on the whole log), cut with evtool truncate --bytes (a valid
# log); ghc-events runs once there (it is slow), evtool best of $runs.
# SHOW_ONLY=1 runs this section alone.
if [ "${REPORT_ONLY:-0}" != 1 ]; then
measure "evtool show >null"          "$evtool" show "$log"
measure "evtool show --format ndjson" "$evtool" show --format ndjson "$log"
prefix_mb=${SHOW_PREFIX_MB:-64}
if [ "$prefix_mb" -gt 0 ]; then
    "$evtool" truncate -q --bytes "${prefix_mb}000000" "$log" -o "$work/prefix.eventlog"
    cmp_log=$work/prefix.eventlog label="${prefix_mb} MB prefix"
else
    cmp_log=$log label="whole log"
fi
cmp_bytes=$(stat -c %s "$cmp_log")
cmp_events=$("$evtool" info --json "$cmp_log" |
    sed -n 's/^ *"events": \([0-9]*\),$/\1/p' | head -n 1)
bytes=$cmp_bytes events=$cmp_events \
    measure "evtool show, $label" "$evtool" show "$cmp_log"
if command -v ghc-events >/dev/null 2>&1; then
    bytes=$cmp_bytes events=$cmp_events runs=1 \
        measure "ghc-events show, $label" ghc-events show "$cmp_log"
fi
rm -f "$work/prefix.eventlog"
fi # REPORT_ONLY

# report (issue 18): the HTML page of the whole log, read once into a
# fixed number of time buckets: its memory and the page's size do not
# grow with the log. REPORT_ONLY=1 runs this section alone.
measure "evtool report -o FILE"  "$evtool" report "$log" -o "$work/report.html"
printf '%-26s %8.2f MB page\n' "  its page" \
    "$(echo "$(stat -c %s "$work/report.html") / 1000000" | bc -l)"
rm -f "$work/report.html"
