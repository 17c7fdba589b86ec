#!/usr/bin/env bash
# Compares what two evtool binaries write for the same commands on the same
# logs: the log outputs byte for byte, standard output, and exit codes. For
# refactors and speed work that must not change any output:
#
#   bash tests/same_outputs.sh OLD_EVTOOL NEW_EVTOOL [LOG_DIR...]
#
# LOG_DIR defaults to testdata/ and, when it exists, the corpus of other GHC
# versions ($EVTOOL_CORPUS). Prints one line per log and command that
# differs, then a count; exits 1 when anything differs. Every command names
# its output with -o, so the comparison does not depend on defaults.
set -uo pipefail
old=$(realpath "$1") new=$(realpath "$2")
shift 2
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then
    set -- "$here/../testdata"
    [ -n "${EVTOOL_CORPUS:-}" ] && [ -d "$EVTOOL_CORPUS" ] && set -- "$@" "$EVTOOL_CORPUS"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One command per line; LOG is the input, OUT the log output (if any);
# GZLOG is LOG through gzip -6, ARCHIVE through the old binary's archive.
commands=(
    'cat LOG -o OUT'
    'cat --reblock --block-size 4096 LOG -o OUT'
    'filter LOG --class gc -o OUT'
    'filter LOG --class scheduler -o OUT'
    'filter LOG --class user -o OUT'
    'filter LOG --cap 0 -o OUT'
    'filter LOG --thread 1,2,3 -o OUT'
    'filter LOG --redact args -o OUT'
    'filter LOG --exclude-class gc -o OUT'
    'sort LOG -o OUT'
    'sort --memory 64k LOG -o OUT'
    'truncate LOG --bytes 4000 -o OUT'
    'truncate LOG --events 100 -o OUT'
    'merge LOG LOG -o OUT'
    'show LOG'
    'show --format ndjson LOG'
    'stats LOG'
    'stats --json LOG'
    'validate --json LOG'
    'info LOG'
    'export LOG -o OUT'
    'export --format speedscope LOG -o OUT'
    'export --format hp LOG -o OUT'
    'archive --force -T 1 LOG -o OUT'
    'archive --force -T 3 LOG -o OUT'
    'cat GZLOG -o OUT'
    'sort GZLOG -o OUT'
    'cat ARCHIVE -o OUT'
    'archive --test ARCHIVE'
)

# run BIN DIR CMD LOG: runs one command into DIR (out.eventlog, stdout,
# status); stderr is not compared (messages may be reworded).
run() {
    local bin=$1 dir=$2 cmd=$3 log=$4
    mkdir -p "$dir"
    cmd=${cmd//GZLOG/$work/in.eventlog.gz}
    cmd=${cmd//ARCHIVE/$work/in.archive.gz}
    cmd=${cmd//LOG/$log}
    cmd=${cmd//OUT/$dir/out.eventlog}
    # shellcheck disable=SC2086
    (cd "$dir" && "$bin" $cmd >"$dir/stdout" 2>/dev/null </dev/null)
    echo $? >"$dir/status"
    sed -i "s|$dir|DIR|g" "$dir/stdout"
}

differ=0 compared=0
for folder in "$@"; do
    for log in "$folder"/*.eventlog; do
        [ -e "$log" ] || continue
        gzip -6 -c "$log" >"$work/in.eventlog.gz"
        "$old" archive --force -c "$log" >"$work/in.archive.gz" 2>/dev/null
        for i in "${!commands[@]}"; do
            run "$old" "$work/old" "${commands[$i]}" "$log"
            run "$new" "$work/new" "${commands[$i]}" "$log"
            compared=$((compared + 1))
            what=""
            cmp -s "$work/old/status" "$work/new/status" ||
                what="exit $(cat "$work/old/status") -> $(cat "$work/new/status")"
            cmp -s "$work/old/stdout" "$work/new/stdout" ||
                what="$what${what:+, }standard output"
            if [ -e "$work/old/out.eventlog" ] || [ -e "$work/new/out.eventlog" ]; then
                cmp -s "$work/old/out.eventlog" "$work/new/out.eventlog" ||
                    what="$what${what:+, }output log"
            fi
            if [ -n "$what" ]; then
                echo "DIFFERS $(basename "$log"): evtool ${commands[$i]}: $what"
                differ=$((differ + 1))
            fi
            rm -rf "$work/old" "$work/new"
        done
    done
done
echo "$compared comparisons, $differ differ"
[ "$differ" -eq 0 ]
