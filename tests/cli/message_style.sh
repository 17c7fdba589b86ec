#!/usr/bin/env bash
# Every message in the golden cases follows one style (issues 8 and 14):
#
#     evtool CMD: FILE: offset N: [warning: |error: ]what is wrong
#     hint: what to do about it
#
# Every message names its command (several evtools in a pipeline share
# one standard error) and its input: the file and offset, or the option
# and its value (evtool truncate: --bytes: '1Q' is not a size ...). Only
# a message from before any command runs (an unknown command, or an
# unknown option before any command: evtool --versoin) says
# "evtool:" alone. The place comes first and the severity after it, for
# errors, warnings and validate's findings alike. This reads the expected
# output of every case and fails on a message that names no command, that
# names an offset in another form, or that puts "warning:" or "error:"
# before the place.
# usage: message_style.sh CASES_DIR
set -uo pipefail
cases=$1
bad=0 checked=0
while IFS= read -r hit; do
    file=${hit%%:*} rest=${hit#*:} line=${rest#*:}
    [[ $line =~ ^evtool(\ [a-z]+)?:\  ]] || continue
    checked=$((checked + 1))
    if { [[ $line =~ ^evtool:\  ]] && ! [[ $line =~ ^evtool:\ unknown\ (command|option)\ \' ]]; } ||
       [[ $line =~ ^evtool\ [a-z]+:\ (warning|error):\  ]] ||
       { [[ $line =~ offset\ [0-9]+: ]] &&
         ! [[ $line =~ ^evtool\ [a-z]+:\ [^\ ].*:\ (stored\ )?offset\ [0-9]+:\ (warning:\ |error:\ )?[^\ ] ]]; }; then
        echo "FAIL $(basename "$file"): $line"
        bad=$((bad + 1))
    fi
done < <(grep -Hn '^evtool[ :]' "$cases"/*.t)
echo "$checked messages checked"
echo "$((checked - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
