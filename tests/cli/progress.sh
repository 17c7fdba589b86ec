#!/usr/bin/env bash
# The progress bar appears on a terminal (on_tty.py runs each command on
# a pseudo-terminal; EVTOOL_PROGRESS_DELAY=0 draws at once, even for a
# small log), not with --no-progress, and never when standard error is a
# file. 77 (skipped) without python3.
# usage: progress.sh EVTOOL TESTDATA
set -uo pipefail
evtool=$(realpath "$1") data=$(realpath "$2")
command -v python3 >/dev/null || exit 77
on_tty=$(realpath "$(dirname "$0")/on_tty.py")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export EVTOOL_PROGRESS_DELAY=0
pass=0 fail=0
log=$data/gc-n2.eventlog

commands=(
    "merge $data/merge-a.eventlog $data/merge-b.eventlog -o out.eventlog"
    "sort $log -o out.eventlog"
    "filter $log --class gc -o out.eventlog"
    "archive $log -o out.eventlog.gz -f"
    "validate $log"
    "truncate $log -o out.eventlog"
)
# A bar: a carriage return, a percentage and a rate.
has_bar() { grep -aq $'\r' "$1" && grep -aqE '[0-9]+% .*B/s' "$1"; }

for c in "${commands[@]}"; do
    name=${c%% *}
    rm -f out.eventlog out.eventlog.gz
    python3 "$on_tty" sh -c "$evtool $c" >tty.txt 2>&1
    if has_bar tty.txt; then pass=$((pass + 1)); else
        echo "FAIL: evtool $name drew no bar on a terminal:"; cat -v tty.txt
        fail=$((fail + 1))
    fi
    rm -f out.eventlog out.eventlog.gz
    python3 "$on_tty" sh -c "$evtool $c --no-progress" >tty.txt 2>&1
    if ! has_bar tty.txt && ! grep -aq $'\033\\[K' tty.txt; then
        pass=$((pass + 1))
    else
        echo "FAIL: evtool $name --no-progress drew a bar:"; cat -v tty.txt
        fail=$((fail + 1))
    fi
    rm -f out.eventlog out.eventlog.gz
    python3 "$on_tty" sh -c "$evtool $c 2>err.txt" >/dev/null 2>&1
    if ! grep -aq $'[\r\033]' err.txt; then pass=$((pass + 1)); else
        echo "FAIL: evtool $name wrote a bar to a file:"; cat -v err.txt
        fail=$((fail + 1))
    fi
done
# A warning (a truncated input) starts a line of its own: the bar is
# erased first, so no message is printed after bar text on one line.
head -c 30000 "$log" > cut.eventlog
for c in "sort cut.eventlog -o out.eventlog" \
         "filter cut.eventlog --class gc -o out.eventlog" \
         "merge --align start cut.eventlog $data/merge-a.eventlog -o out.eventlog"; do
    name=${c%% *}
    python3 "$on_tty" sh -c "$evtool $c" >tty.txt 2>&1
    lines=$(tr '\r' '\n' <tty.txt | grep -aE 'evtool [a-z]+: ')
    if grep -aq 'warning: ' <<<"$lines" &&
       ! grep -avq $'^\(\033\\[K\)*evtool [a-z]*: ' <<<"$lines"; then
        pass=$((pass + 1))
    else
        echo "FAIL: evtool $name: a warning shares a line with the bar:"
        cat -v tty.txt
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
