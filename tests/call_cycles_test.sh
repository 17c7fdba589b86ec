#!/bin/bash
# Shows that tests/call_cycles.sh fails on each thing it forbids and
# passes a tree that keeps its rules, on small C files compiled here:
#   - two files of one folder that call each other;
#   - lib/format calling a function of an operation's folder;
#   - lib/format including an operation's internal header;
#   - lib/common (the threading layer) calling lib/format;
#   - lib/io (sources and sinks) calling lib/format, or including its
#     internal header;
#   - two files of the program (cmd/) that call each other, and a file of
#     cmd/ that includes an internal header of lib/ (--program).
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
		cc -c -I format -I io -I sort "$c" -o "$work/$name/obj/$c.o"
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

tree clean 'format/a.c:int c(void); int s(void); int a(void) { return c() + s(); }' \
	'io/s.c:int c(void); int s(void) { return c(); }' \
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

tree io 'io/s.c:int a(void); int s(void) { return a(); }' \
	'format/a.c:int a(void) { return 1; }'
expect io 1 'layers: lib/io -> format is not allowed: io/s.c:a'

tree io_header 'io/s.c:#include "internal.h"
int s(void) { return F; }' \
	'format/internal.h:#define F 2'
expect io_header 1 'layers: lib/io/s.c includes lib/format/internal.h'

# program NAME STATUS TEXT FILE...: as tree and expect for --program, the
# files ("path:content") under $work/NAME/cmd (a path with a folder goes
# under $work/NAME/lib).
program() {
	local name=$1 want=$2 text=$3 out status=0; shift 3
	for spec in "$@"; do
		case ${spec%%:*} in
		*/*) mkdir -p "$(dirname "$work/$name/lib/${spec%%:*}")"
		     printf '%s\n' "${spec#*:}" > "$work/$name/lib/${spec%%:*}" ;;
		*)   mkdir -p "$work/$name/cmd"
		     printf '%s\n' "${spec#*:}" > "$work/$name/cmd/${spec%%:*}" ;;
		esac
	done
	mkdir -p "$work/$name/obj" "$work/$name/lib"
	(cd "$work/$name/cmd" && for c in *.c; do
		cc -c -I "$work/$name/lib/format" "$c" -o "$work/$name/obj/$c.o"
	done)
	out=$(bash "$check" --program "$work/$name/obj" "$work/$name/cmd" \
		"$work/$name/lib" 2>&1) || status=$?
	if [ "$status" -ne "$want" ] || ! grep -qF -- "$text" <<<"$out"; then
		echo "FAIL $name: exit $status, want $want and '$text'; got:"; echo "$out"
		fail=1
	else
		echo "ok   $name"
	fi
}

program cmd_clean 0 'no two files of cmd/ call each other' \
	'main.c:int b(void); int main(void) { return b(); }' \
	'b.c:int b(void) { return 0; }'
program cmd_cycle 1 'call cycle: cmd/a.c -> cmd/b.c: b' \
	'a.c:int b(void); int a(void) { return b(); }' \
	'b.c:int a(void); int b(void) { return a(); }'
program cmd_header 1 'layers: cmd/a.c includes lib/format/wire.h' \
	'a.c:#include "wire.h"
int a(void) { return W; }' \
	'format/wire.h:#define W 1'

exit $fail
