#!/bin/bash
# Shows that tests/call_cycles.sh fails on each thing it forbids and
# passes a tree that keeps its rules, on small C files compiled here:
#   - two files of one folder that call each other;
#   - lib/format calling a function of an operation's folder;
#   - lib/format including an operation's internal header;
#   - lib/common (the threading layer) calling lib/format.
set -euo pipefail
check=$(cd "$(dirname "$0")" && pwd)/call_cycles.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

# tree NAME: writes the files given as "path:content" arguments under
# $work/NAME/lib and compiles each .c into $work/NAME/obj/<path>.o
tree() {
	local name=$1; shift
	for spec in "$@"; do
		mkdir -p "$(dirname "$work/$name/lib/${spec%%:*}")"
		printf '%s\n' "${spec#*:}" > "$work/$name/lib/${spec%%:*}"
	done
	(cd "$work/$name/lib" && for c in */*.c; do
		mkdir -p "$work/$name/obj/$(dirname "$c")"
		cc -c -I format -I sort "$c" -o "$work/$name/obj/$c.o"
	done)
}

# expect NAME STATUS TEXT: the check's exit status and a line of its output
expect() {
	local out status=0
	out=$(bash "$check" "$work/$1/obj" "$work/$1/lib" 2>&1) || status=$?
	if [ "$status" -ne "$2" ] || ! grep -qF -- "$3" <<<"$out"; then
		echo "FAIL $1: exit $status, want $2 and '$3'; got:"; echo "$out"
		fail=1
	else
		echo "ok   $1"
	fi
}

tree clean 'format/a.c:int c(void); int a(void) { return c(); }' \
	'common/c.c:int c(void) { return 3; }' \
	'sort/b.c:int a(void); int c(void); int b(void) { return a() + c(); }'
expect clean 0 'the layers hold'

tree cycle 'sort/a.c:int b(void); int a(void) { return b(); }' \
	'sort/b.c:int a(void); int b(void) { return a(); }'
expect cycle 1 'call cycle: sort/'

tree upward 'format/a.c:int b(void); int a(void) { return b(); }' \
	'sort/b.c:int b(void) { return 2; }'
expect upward 1 'layers: lib/format -> sort is not allowed: format/a.c:b'

tree header 'format/a.c:#include "sort_internal.h"
int a(void) { return B; }' \
	'sort/sort_internal.h:#define B 2' \
	'sort/b.c:int b(void) { return 2; }'
expect header 1 'layers: lib/format/a.c includes lib/sort/sort_internal.h'

tree common 'common/c.c:int a(void); int c(void) { return a(); }' \
	'format/a.c:int a(void) { return 1; }'
expect common 1 'layers: lib/common -> format is not allowed: common/c.c:a'

exit $fail
