#!/usr/bin/env bash
# The man page against the command table, both ways:
#  - every command has its section (.SS "evtool CMD ...") and every option
#    of it (long and short names) is in that section, an option that takes
#    one of a few words with each of them on its item line;
#  - every section of COMMANDS is a command of the table, once; every
#    option an item (.TP) of a section documents is an option of that
#    command; and every --option the page mentions anywhere is one some
#    command has (or --help, --version);
# every exit code is listed; and man and groff render it without a
# warning.
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
    # The words of "words:"/"list:" options are on the option's item line.
    while IFS=$'\t' read -r long hint; do
        item=$(o="$(roff "--$long") " awk '
            tp && index($0 " ", ENVIRON["o"]) { print; exit }
            { tp = ($0 == ".TP") }' <<<"$section")
        for w in ${hint#*:}; do
            grep -qF -- "$(roff "$w")" <<<"$item" && ok ||
                bad "evtool $c: --$long's item in $page lacks its value '$w'"
        done
    done < <(awk -F'\t' -v c="$c" '$1 == "option" && $2 == c &&
                 $6 ~ /^(words|list):/ && $5 ~ /\|/ { print $3 "\t" $6 }' <<<"$dump")
done

# ---- the other way: what the page documents, the tables have ----
# The page as plain text: "\-" is "-", font changes dropped, comments out.
plain=$(sed -e '/^\.\\"/d' -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$page")
is_command() { awk -F'\t' -v c="$1" '$1 == "command" && $2 == c { f = 1 } END { exit !f }' <<<"$dump"; }
is_option() { # command long-or-short ("--name" or "-x")
    awk -F'\t' -v c="$1" -v o="$2" '$1 == "option" && $2 == c &&
        ("--" $3 == o || "-" $4 == o) { f = 1 } END { exit !f }' <<<"$dump"
}
# "CMD<TAB>LINE" for each section heading and each item (.TP) line of
# COMMANDS, "CMD" being the section's command.
items=$(awk '/^\.SH/ { in_cmds = ($0 ~ /^\.SH COMMANDS/); cmd = ""; next }
             !in_cmds { next }
             /^\.SS "evtool / { split($0, w, /[ "]+/); cmd = w[3]
                                print cmd "\t.SS"; next }
             tp { print cmd "\t" $0 }
             { tp = ($0 == ".TP") }' <<<"$plain")
for c in $(awk -F'\t' '$2 == ".SS" { print $1 }' <<<"$items" | sort | uniq -c |
           awk '$1 > 1 { print $2 }'); do
    bad "$page has more than one section for 'evtool $c'"
done
while IFS=$'\t' read -r c line; do
    if [ "$line" = .SS ]; then
        is_command "$c" && ok ||
            bad "$page documents 'evtool $c', which is not a command of the table"
        continue
    fi
    is_command "$c" || continue
    for o in $(grep -oE -- '(^|[ "(])--?[a-zA-Z][a-zA-Z0-9-]*' <<<"$line" |
               sed 's/^[ "(]*//'); do
        [ "$o" = --help ] || [ "$o" = -h ] && continue
        is_option "$c" "$o" && ok ||
            bad "$page documents 'evtool $c $o', which is not in its option table"
    done
done <<<"$items"
# Any --option in the page: some command has it (a trailing "-", as in
# "--exclude-*", is a prefix of one).
all_longs=$(awk -F'\t' '$1 == "option" { print "--" $3 }' <<<"$dump" | sort -u)
for o in $(grep -oE -- '(^|[^a-zA-Z0-9-])--[a-z][a-z0-9-]*' <<<"$plain" |
           sed 's/^[^-]*//' | sort -u); do
    case $o in
    --help | --version) ok ;;
    *-) grep -q -- "^$o" <<<"$all_longs" && ok ||
            bad "$page mentions $o*, but no option starts so" ;;
    *) grep -qx -- "$o" <<<"$all_longs" && ok ||
            bad "$page mentions $o, which no command has" ;;
    esac
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
