#!/usr/bin/env bash
# The shell completions in completions/ against the command table:
#  1. they are what completions/generate.sh makes from
#     `evtool help --dump-options` today (a command or an option added to
#     the table and not regenerated fails here);
#  2. loaded in real bash, zsh and fish, each completes every command,
#     every option of every command (bash, fish; zsh for a sample and by
#     its spec lines), option values and file names.
# Exit 77 (skipped) when zsh or fish is missing, after the other checks.
# usage: run.sh EVTOOL SOURCE_DIR
set -uo pipefail
evtool=$(realpath "$1") src=$(realpath "$2")
comp=$src/completions
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# ---- 1. generated from the table ----
mkdir "$work/fresh"
bash "$comp/generate.sh" "$evtool" "$work/fresh"
for f in evtool.bash _evtool evtool.fish; do
    if diff -u "$comp/$f" "$work/fresh/$f" >"$work/diff"; then
        ok
    else
        head -n 40 "$work/diff"
        bad "completions/$f is not what the command table gives; regenerate" \
            "with 'cmake --build BUILD --target completions'"
    fi
done

dump=$("$evtool" help --dump-options)
commands=$(awk -F'\t' '$1 == "command" { print $2 }' <<<"$dump")
options() { awk -F'\t' -v c="$1" '$1 == "option" && $2 == c { print $3 }' <<<"$dump"; }

# ---- 1b. the value words completion offers are the ones the parsers take ----
# Every option that takes a fixed set of words names them in its table
# entry (value_name "text|ndjson"; cli.h), and the dump turns them into a
# words: or list: hint. Each word must get past the option's parser (the
# run then fails on the missing input, exit 4, not on the value, exit 2),
# and a word outside the set must be refused with a message naming every
# word of the set, so that a parser taking one more word or one fewer
# than the table fails here.
for opt in show:format sort:method merge:align filter:redact; do
    grep -qP "^option\t${opt%%:*}\t${opt#*:}\t[^\t]*\t[^\t]*\t(words|list):" <<<"$dump" && ok ||
        bad "evtool ${opt%%:*} --${opt#*:}: no value words in the option table"
done
value_run() { # cmd option value: the exit status of evtool with it
    local out=()
    [ -n "$(awk -F'\t' -v c="$1" '$1 == "option" && $2 == c && $3 == "output"' <<<"$dump")" ] &&
        out=(-o "$work/out.eventlog")
    "$evtool" "$1" "--$2=$3" "${out[@]}" "$work/missing.eventlog" 2>"$work/value.err"
}
while IFS=$'\t' read -r c long hint; do
    words=${hint#*:}
    for w in $words; do
        value_run "$c" "$long" "$w"
        [ $? -ne 2 ] && ok || bad "evtool $c --$long $w: refused ($(head -n 1 "$work/value.err"))"
    done
    if [ "${hint%%:*}" = list ]; then
        value_run "$c" "$long" "${words// /,}"
        [ $? -ne 2 ] && ok || bad "evtool $c --$long ${words// /,}: refused"
    fi
    value_run "$c" "$long" bogus
    if [ $? -eq 2 ] && grep -q -- "--$long: 'bogus'" "$work/value.err"; then
        ok
        # The refusal lists the words the parser takes: exactly the table's.
        said=$(head -n 1 "$work/value.err" | sed "s/.*'bogus'//" | tr -c 'a-z-\n' ' ')
        for w in $words; do
            grep -qw -- "$w" <<<"$said" && ok ||
                bad "evtool $c --$long: the table has '$w', the parser's message does not"
        done
        for w in $said; do
            case " $words is not cannot be redacted use or " in
            *" $w "*) ok ;;
            *) bad "evtool $c --$long: the parser names '$w', the table does not" ;;
            esac
        done
    else
        bad "evtool $c --$long bogus: not refused as a usage error"
    fi
done < <(awk -F'\t' '$1 == "option" && $6 ~ /^(words|list):/ &&
                     $3 != "class" && $3 != "exclude-class" &&
                     $3 != "type" && $3 != "exclude-type" {
             print $2 "\t" $3 "\t" $6 }' <<<"$dump")

# Files to complete: a folder with a log in it.
mkdir -p "$work/files/logs"
: >"$work/files/logs/run.eventlog"
: >"$work/files/logs/run2.eventlog"
cd "$work/files"

# expect SHELL LINE WANT GOT: WANT is one of the lines of GOT.
expect() {
    if grep -qxF -- "$3" <<<"$4"; then ok; else
        bad "$1: '$2' offers [$(tr '\n' ' ' <<<"$4")], not '$3'"
    fi
}

# ---- 2a. bash ----
bash_complete() { # words... (the last one is completed)
    bash --norc --noprofile -c '
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _evtool; printf "%s\n" "${COMPREPLY[@]}"' _ "$comp/evtool.bash" "$@"
}
for c in $commands; do
    expect bash "evtool ${c:0:3}" "$c" "$(bash_complete evtool "${c:0:3}")"
    expect bash "evtool help ${c:0:3}" "$c" "$(bash_complete evtool help "${c:0:3}")"
    got=$(bash_complete evtool "$c" --)
    for o in $(options "$c"); do
        expect bash "evtool $c --" "--$o" "$got"
    done
done
expect bash "evtool show --format " text "$(bash_complete evtool show --format '')"
expect bash "evtool show --format " ndjson "$(bash_complete evtool show --format '')"
expect bash "evtool show --format=nd" ndjson "$(bash_complete evtool show --format=nd)"
expect bash "evtool filter --redact args," args,env "$(bash_complete evtool filter --redact args,)"
expect bash "evtool merge --align s" start "$(bash_complete evtool merge --align s)"
expect bash "evtool merge --align=s" start "$(bash_complete evtool merge --align = s)"
expect bash "evtool filter --class gc,us" gc,user "$(bash_complete evtool filter --class gc,us)"
expect bash "evtool sort --method e" external "$(bash_complete evtool sort --method e)"
expect bash "evtool info logs/r" logs/run.eventlog "$(bash_complete evtool info logs/r)"
expect bash "evtool cat x -o logs/run2" logs/run2.eventlog "$(bash_complete evtool cat x -o logs/run2)"
[ -z "$(bash_complete evtool filter --from 1)" ] && ok ||
    bad "bash: a time value completed to something"

# ---- 2b. fish ----
if command -v fish >/dev/null; then
    fish_complete() { # line
        fish --no-config -c "source '$comp/evtool.fish'; complete -C '$1'" |
            cut -f1
    }
    # One fish for all options: "COMMAND<TAB>completions of --" per line.
    all=$(for c in $commands; do echo "$c"; done |
          fish --no-config -c "source '$comp/evtool.fish'
              while read -l c
                  for m in (complete -C \"evtool \$c --\")
                      echo \$c\t(string split -f1 \t -- \$m)
                  end
              end")
    for c in $commands; do
        expect fish "evtool ${c:0:3}" "$c" "$(fish_complete "evtool ${c:0:3}")"
        got=$(awk -F'\t' -v c="$c" '$1 == c { print $2 }' <<<"$all")
        for o in $(options "$c"); do
            expect fish "evtool $c --" "--$o" "$got"
        done
    done
    expect fish "evtool help tr" truncate "$(fish_complete 'evtool help tr')"
    expect fish "evtool show --format " text "$(fish_complete 'evtool show --format ')"
    expect fish "evtool show --format " ndjson "$(fish_complete 'evtool show --format ')"
    expect fish "evtool show --format=nd" --format=ndjson "$(fish_complete 'evtool show --format=nd')"
    expect fish "evtool merge --align " start "$(fish_complete 'evtool merge --align ')"
    expect fish "evtool filter --class=gc,us" --class=gc,user \
        "$(fish_complete 'evtool filter --class=gc,us')"
    expect fish "evtool info logs/r" logs/run.eventlog "$(fish_complete 'evtool info logs/r')"
else
    echo "skip: fish is not installed"; skipped=1
fi

# ---- 2c. zsh (zpty) ----
if command -v zsh >/dev/null; then
    zsh_complete() { zsh -f "$src/tests/completions/zsh-complete.zsh" "$comp" "$1"; }
    for c in $commands; do
        # Every option is in the command's _arguments spec.
        body=$(sed -n "/^_evtool_${c//-/_}() {/,/^}/p" "$comp/_evtool")
        for o in $(options "$c"); do
            grep -q -- "--$o[]=[},]" <<<"$body" && ok ||
                bad "zsh: _evtool_${c//-/_} lacks --$o"
        done
    done
    expect zsh "evtool mer" merge "$(zsh_complete 'evtool mer')"
    expect zsh "evtool help tr" truncate "$(zsh_complete 'evtool help tr')"
    expect zsh "evtool validate --no-p" --no-progress "$(zsh_complete 'evtool validate --no-p')"
    expect zsh "evtool show --format " text "$(zsh_complete 'evtool show --format ')"
    expect zsh "evtool show --format " ndjson "$(zsh_complete 'evtool show --format ')"
    expect zsh "evtool show --format=" ndjson "$(zsh_complete 'evtool show --format=')"
    expect zsh "evtool merge --align " start "$(zsh_complete 'evtool merge --align ')"
    expect zsh "evtool sort --method=" external "$(zsh_complete 'evtool sort --method=')"
    expect zsh "evtool filter --class gc,us" user "$(zsh_complete 'evtool filter --class gc,us')"
    expect zsh "evtool info logs/r" run.eventlog "$(zsh_complete 'evtool info logs/r')"
else
    echo "skip: zsh is not installed"; skipped=1
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || exit 1
[ "$skipped" -eq 0 ] || exit 77
