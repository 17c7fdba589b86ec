#!/usr/bin/env bash
# Golden tests for the evtool command line.
#
# Each tests/cli/cases/NAME.t holds:
#   # comment lines: what the case checks
#   cmd: a bash snippet; `evtool` is the binary under test
#   exit: the expected exit status of the snippet
#   --- stdout      (optional) the exact expected standard output follows
#   --- stderr      (optional) the exact expected standard error follows
# The snippet runs in a fresh temporary folder. @DATA@ stands for the
# testdata folder and @CASES@ for the cases folder, in the snippet and in
# the expected output. EVTOOL_GOLDEN_UPDATE=1 rewrites the expected output
# sections from what the binary prints now (review the diff!).
#
# In a sanitizer build (-DEVTOOL_SANITIZE=ON) a report is a failure even
# when the case sends standard error to /dev/null or ignores the exit
# status: ASan, LSan and UBSan write their reports to files in a folder
# of the case's own (log_path), and a case that leaves one fails with the
# report shown. Options already in ASAN_OPTIONS and UBSAN_OPTIONS are kept;
# log_path and detect_leaks=1 are added after them, so they win. In a
# build without sanitizers nothing reads these variables and no file
# appears.
#
# usage: run.sh EVTOOL DATA_DIR [CASE...]
set -uo pipefail
evtool_bin=$(realpath "$1") data=$(realpath "$2")
shift 2
cases_dir=$(cd "$(dirname "$0")/cases" && pwd)
[ $# -gt 0 ] || set -- "$cases_dir"/*.t
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" && ln -s "$evtool_bin" "$work/bin/evtool"
pass=0 fail=0

field() { sed -n "s/^$1: //p" "$2" | head -n 1; }
section() { # name file: the lines after "--- name" up to the next "--- "
    awk -v want="--- $1" '$0 ~ /^--- / { on = ($0 == want); next } on' "$2"
}
has_section() { grep -qx -- "--- $1" "$2"; }
normalise() { sed -e "s|$data|@DATA@|g" -e "s|$cases_dir|@CASES@|g" \
                  -e "s|$evtool_bin|evtool|g"; }

update_case() { # file, stdout, stderr
    local keep
    keep=$(awk '/^--- /{exit} {print}' "$1")
    { printf '%s\n' "$keep"
      if has_section stdout "$1"; then echo "--- stdout"; cat "$2"; fi
      if has_section stderr "$1"; then echo "--- stderr"; cat "$3"; fi
    } > "$1.new" && mv "$1.new" "$1"
}

run_case() {
    local t=$1 name dir snippet want got
    name=$(basename "$t" .t)
    dir="$work/$name"; mkdir -p "$dir"
    snippet=$(field cmd "$t" | sed -e "s|@DATA@|$data|g" -e "s|@CASES@|$cases_dir|g")
    want=$(field exit "$t")
    mkdir -p "$dir.san"
    (export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:log_path=$dir.san/san"
     export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:log_path=$dir.san/san"
     cd "$dir" && PATH="$work/bin:$PATH" && eval "$snippet") \
        </dev/null >"$dir.out" 2>"$dir.err"
    got=$?
    normalise <"$dir.out" >"$dir.stdout"
    normalise <"$dir.err" >"$dir.stderr"
    if [ "${EVTOOL_GOLDEN_UPDATE:-}" = 1 ]; then
        update_case "$t" "$dir.stdout" "$dir.stderr"
    fi
    local problem=""
    [ "$got" = "$want" ] || problem="exit $got, want $want"
    for s in stdout stderr; do
        if has_section $s "$t" && ! diff -u <(section $s "$t") "$dir.$s" \
                >"$dir.$s.diff"; then
            problem="$problem${problem:+; }$s differs"
        fi
    done
    local reports
    reports=$(find "$dir.san" -type f | sort)
    [ -z "$reports" ] ||
        problem="$problem${problem:+; }sanitizer report ($(wc -l <<<"$reports") file(s))"
    if [ -z "$problem" ]; then
        echo "ok $name"
    else
        echo "FAIL $name: $problem"
        cat "$dir.stdout.diff" "$dir.stderr.diff" 2>/dev/null | head -n 40
        [ -s "$dir.stderr" ] && sed 's/^/  stderr: /' "$dir.stderr" | head -n 5
        for r in $reports; do
            echo "  --- $(basename "$r")"
            sed 's/^/  san: /' "$r" | head -n 60
        done
    fi
}

# The cases run in parallel (EVTOOL_CLI_JOBS, default: the number of
# processors), each into its own result file; the results are then printed
# in the cases' order.
jobs=${EVTOOL_CLI_JOBS:-$(nproc)}
running=0
for t in "$@"; do
    if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
    run_case "$t" >"$work/$(basename "$t" .t).result" 2>&1 &
    running=$((running + 1))
done
wait
for t in "$@"; do
    result="$work/$(basename "$t" .t).result"
    cat "$result"
    if head -n 1 "$result" | grep -q '^ok '; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
