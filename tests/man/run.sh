#!/usr/bin/env bash
# The man page against the command table: every command has its section
# (.SS "evtool CMD ...") and every option of it (long and short names) is
# in that section; every exit code is listed; and man and groff render it
# without a warning.
# usage: run.sh EVTOOL doc/evtool.1
set -uo pipefail
evtool=$1 page=$2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

dump=$("$evtool" help --dump-options)
roff() { printf '%s' "${1//-/\\-}"; } # "--no-progress" as written in roff

for c in $(awk -F'\t' '$1 == "command" { print $2 }' <<<"$dump"); do
    section=$(awk -v h=".SS \"evtool $c " '
        index($0, h) == 1 { on = 1; next }
        on && /^\.S[SH]/ { on = 0 }
        on' "$page")
    if [ -z "$section" ]; then
        bad "no section '.SS \"evtool $c ...' in $page"
        continue
    fi
    ok
    while IFS=$'\t' read -r long short; do
        [ "$long" = help ] && continue # described once for all commands
        grep -qF -- "$(roff "--$long")" <<<"$section" && ok ||
            bad "evtool $c: --$long is not in its section of $page"
        if [ "$short" != - ]; then
            grep -qF -- "$(roff "-$short")" <<<"$section" && ok ||
                bad "evtool $c: -$short is not in its section of $page"
        fi
    done < <(awk -F'\t' -v c="$c" '$1 == "option" && $2 == c {
                 print $3 "\t" $4 }' <<<"$dump")
    grep -q '^\.EX' <<<"$section" && ok || bad "evtool $c: no example"
done

exits=$(awk '/^\.SH EXIT STATUS/ { on = 1; next } on && /^\.SH/ { on = 0 } on' "$page")
for code in 0 1 2 3 4; do
    grep -qx "\.B $code" <<<"$exits" && ok || bad "exit code $code is not listed"
done

if command -v groff >/dev/null; then
    w=$(groff -man -ww -z "$page" 2>&1)
    [ -z "$w" ] && ok || bad "groff warns: $w"
fi
if command -v man >/dev/null; then
    w=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
    [ -z "$w" ] && ok || bad "man warns: $w"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
