#!/bin/bash
# Checks how the files of lib/ call each other (issue 16), from the
# defined (T, D, B, R) and undefined (U) symbols of every object file (nm):
# - no two files call each other (A uses a symbol defined in B, and B one
#   defined in A);
# - the layers hold: lib/common/ (diagnostics, arrays, id maps, text,
#   times, the threading layer) calls nothing outside itself, lib/io/
#   (sources, sinks, gzip, temporary files, read-ahead) nothing but
#   lib/common/, lib/format/ nothing but those two, and an operation's
#   folder those three and itself only, but for
#   the uses LAYERS below allows (lib/inspect/ holds what analyses share,
#   view's bands among them; report is built on stats; export's visit
#   drives the sorter, on the log or on the events its workers picked,
#   ev_exporter_visit); the same holds
#   for which internal headers (lib/FOLDER/*.h) a file includes.
#
#     bash tests/call_cycles.sh OBJDIR [LIBDIR]
#     bash tests/call_cycles.sh --program OBJDIR [CMDDIR [LIBDIR]]
#
# OBJDIR: build/lib/CMakeFiles/evtool_objects.dir; LIBDIR: the sources
# (lib/ beside this script by default; tests/call_cycles_test.sh gives
# its own to show that each rule fails).
#
# --program checks the program instead (OBJDIR build/cmd/CMakeFiles/
# evtool.dir, CMDDIR cmd/ by default): no two of its files call each other,
# and none includes a header of lib/ (the program is built on the public
# API only).
#
# Object files whose source no longer exists (left in an incremental build
# folder after a file moved) are ignored.
set -euo pipefail

LAYERS='stats->inspect export->inspect report->inspect view->inspect report->stats export->stats export->sort archive->validate view->stats'

# symbols OBJDIR SRCDIR PREFIX: "D file symbol" for what each object
# defines and "U file symbol" for what it uses, the file named PREFIX
# and its path under SRCDIR.
symbols() {
	local objects o f
	objects=$(find "$1" -name '*.o' | sort)
	[ -n "$objects" ] || { echo "call_cycles: no object files in $1" >&2; exit 2; }
	for o in $objects; do
		f=${o#"$1"/}
		f=${f%.o}
		[ -f "$2/$f" ] || continue
		nm "$o" | awk -v f="$3$f" '
			$2 ~ /^[TDBR]$/ { print "D", f, $3 }
			$1 == "U"       { print "U", f, $2 }'
	done
}

# check_calls: reads symbols' lines; prints each pair of files that call
# each other and each call across the layers otherwise than LAYERS allows;
# fails if there is any.
check_calls() {
	awk -v layers="$LAYERS" '
	function folder(path) { sub(/\/.*/, "", path); return path }
	function rank(f) { return f == "common" ? 0 : f == "io" ? 1 : f == "format" ? 2 : 3 }
	BEGIN {
		n = split(layers, l, " ")
		for (i = 1; i <= n; i++)
			allowed[l[i]] = 1
	}
	$1 == "D" { def[$3] = $2; next }
	{ use[++n] = $2 " " $3 }
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			if (!(u[2] in def) || def[u[2]] == u[1])
				continue
			edge[u[1] " -> " def[u[2]]] = edge[u[1] " -> " def[u[2]]] " " u[2]
			from = folder(u[1]); to = folder(def[u[2]])
			base = rank(to) < rank(from)
			if (from != to && !base && !((from "->" to) in allowed))
				up[from " -> " to] = up[from " -> " to] " " u[1] ":" u[2]
		}
		for (e in edge) {
			split(e, p, " -> ")
			back = p[2] " -> " p[1]
			if ((back in edge) && p[1] < p[2]) {
				print "call cycle: " e ":" edge[e]
				print "        and " back ":" edge[back]
				bad = 1
			}
		}
		for (e in up) {
			print "layers: lib/" e " is not allowed:" up[e]
			bad = 1
		}
		exit bad
	}'
}

# rank FOLDER: the base layers, lowest first (common, io, format); every
# operation's folder is above them. A folder calls and includes those of a
# lower rank; operations call each other only as LAYERS allows.
rank() {
	case $1 in common) echo 0 ;; io) echo 1 ;; format) echo 2 ;; *) echo 3 ;; esac
}

program=
if [ "${1:-}" = --program ]; then
	program=1
	shift
fi
dir=${1:?usage: call_cycles.sh [--program] OBJDIR [SRCDIR]}
[ -d "$dir" ] || { echo "call_cycles: no folder $dir" >&2; exit 2; }
if [ -n "$program" ]; then
	src=$(cd "${2:-$(dirname "$0")/../cmd}" && pwd)
	lib=$(cd "${3:-$(dirname "$0")/../lib}" && pwd)
	bad_include=0
	for f in "$src"/*.c "$src"/*.h; do
		for h in $(sed -n 's/^#include "\([^"/]*\.h\)".*/\1/p' "$f"); do
			[ -f "$src/$h" ] && continue
			owner=$(cd "$lib" && ls -d */"$h" 2>/dev/null | head -1) || true
			[ -n "$owner" ] || continue
			echo "layers: cmd/${f#"$src"/} includes lib/$owner"
			bad_include=1
		done
	done
	symbols "$dir" "$src" cmd/ | check_calls && [ "$bad_include" = 0 ] &&
		echo "call_cycles: no two files of cmd/ call each other; cmd/ includes no header of lib/"
	exit
fi
lib=$(cd "${2:-$(dirname "$0")/../lib}" && pwd)

# Internal headers included across the layers.
bad_include=0
for src in "$lib"/*/*.c "$lib"/*/*.h; do
	from=${src#"$lib"/}
	from=${from%%/*}
	for h in $(sed -n 's/^#include "\([^"/]*\.h\)".*/\1/p' "$src"); do
		owner=$(cd "$lib" && ls -d */"$h" 2>/dev/null | head -1)
		to=${owner%%/*}
		[ -n "$to" ] && [ "$to" != "$from" ] || continue
		[ "$(rank "$to")" -lt "$(rank "$from")" ] && continue
		case " $LAYERS " in *" $from->$to "*) continue ;; esac
		echo "layers: lib/${src#"$lib"/} includes lib/$owner"
		bad_include=1
	done
done

symbols "$dir" "$lib" "" | check_calls && [ "$bad_include" = 0 ] &&
	echo "call_cycles: no two files of lib/ call each other; the layers hold"
