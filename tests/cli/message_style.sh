#!/usr/bin/env bash
# Every message in the golden cases follows one style (issue 8):
#
#     evtool: FILE: offset N: [warning: |error: ]what is wrong
#     hint: what to do about it
#
# The place comes first and the severity after it, for errors, warnings
# and validate's findings alike. This reads the expected stderr of every
# case and fails on a message that names an offset in another form, or
# that puts "warning:" or "error:" before the file.
# usage: message_style.sh CASES_DIR
set -uo pipefail
cases=$1
bad=0 checked=0
while IFS= read -r hit; do
    file=${hit%%:*} rest=${hit#*:} line=${rest#*:}
    case $line in evtool:*) ;; *) continue ;; esac
    checked=$((checked + 1))
    if [[ $line =~ ^evtool:\ (warning|error):\  ]] ||
       { [[ $line =~ offset\ [0-9]+: ]] &&
         ! [[ $line =~ ^evtool:\ [^\ ].*:\ (stored\ )?offset\ [0-9]+:\ (warning:\ |error:\ )?[^\ ] ]]; }; then
        echo "FAIL $(basename "$file"): $line"
        bad=$((bad + 1))
    fi
done < <(grep -Hn '^evtool: ' "$cases"/*.t)
echo "$checked messages checked"
echo "$((checked - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
