#!/usr/bin/env bash
# Counts the instructions (callgrind, every thread) evtool spends on the
# hot paths, on a prefix of a large log, for comparing two builds:
#
#   bash bench/instructions.sh EVTOOL PREFIX.eventlog [COMMAND...]
#
# PREFIX is a valid log, such as the first 30 MB of bench/make-large-log.sh's
# output cut by `evtool truncate --bytes 30000000`. COMMANDs are among cat,
# filter, sort, merge, validate, export and show (all by default), info,
# validate1 (validate -T 1: its one pass) and view (the server until its
# index is complete, asked through /api/meta with curl, then
# interrupted). Prints one "command instructions" line each; outputs go
# to /dev/null. Needs valgrind.
set -euo pipefail
evtool=$(realpath "$1") log=$(realpath "$2")
shift 2
[ $# -gt 0 ] || set -- cat filter sort merge validate export show
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for c in "$@"; do
	case $c in
	cat)      args=(cat "$log" -o -) ;;
	filter)   args=(filter "$log" --class gc -o -) ;;
	sort)     args=(sort "$log" -o -) ;;
	merge)    args=(merge "$log" "$log" -o -) ;;
	validate) args=(validate "$log") ;;
	export)   args=(export "$log" -o -) ;;
	show)     args=(show "$log") ;;
	info)     args=(info -T 1 "$log") ;;
	validate1) args=(validate -T 1 "$log") ;;
	view)     args=(view "$log") ;;
	*) echo "instructions.sh: unknown command $c" >&2; exit 2 ;;
	esac
	if [ "$c" = view ]; then
		valgrind --tool=callgrind --callgrind-out-file="$work/out" \
			"$evtool" "${args[@]}" >"$work/url" 2>"$work/err" &
		pid=$!
		until url=$(head -n 1 "$work/url") && [ -n "$url" ]; do sleep 1; done
		until curl -fs "${url%%/\?token=*}/api/meta?token=${url##*token=}" |
			grep -q '"at_end": *true'; do sleep 1; done
		kill -INT "$pid"
		wait "$pid" || true
	else
		valgrind --tool=callgrind --callgrind-out-file="$work/out" \
			"$evtool" "${args[@]}" >/dev/null 2>"$work/err" || true
	fi
	n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/err")
	[ -n "$n" ] || { cat "$work/err" >&2; exit 1; }
	echo "$c $n"
done
