#!/usr/bin/env zsh
# Prints the matches zsh's completion system offers for a command line:
# an interactive zsh in a pseudo-terminal (zpty) loads compinit with the
# completion folder first in $fpath, the line is typed with a TAB, and a
# compadd wrapper writes each match to a file instead of the screen.
# usage: zsh -f zsh-complete.zsh COMPLETION_DIR 'evtool mer'
zmodload zsh/zpty || exit 77
dir=$1 line=$2
out=$(mktemp) done=$out.done
trap 'zpty -d comp 2>/dev/null; rm -f $out $done' EXIT

zpty comp zsh -f -i
zpty -w comp "PROMPT= ; fpath=(${(q)dir} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w comp "zstyle ':completion:*' list-grouped false"
# Every match goes through compadd: record what it would add.
zpty -w comp 'compadd() { local -a __m; builtin compadd -O __m "$@"; (( $#__m )) && print -rl -- $__m >>'${(q)out}'; builtin compadd "$@" }'
zpty -w comp "__done() { : > ${(q)done} }; comppostfuncs=( __done )"
zpty -w comp "$line"$'\t'
for i in {1..100}; do
    [[ -e $done ]] && break
    sleep 0.05
done
[[ -e $done ]] || { print -u2 "zsh-complete: no completion for '$line'"; exit 1 }
sort -u $out
