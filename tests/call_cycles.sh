#!/bin/bash
# Checks how the files of lib/ call each other (issue 16), from the
# defined (T, D, B, R) and undefined (U) symbols of every object file (nm):
# - no two files call each other (A uses a symbol defined in B, and B one
#   defined in A);
# - the layers hold: lib/common/ (the threading layer) calls nothing
#   outside itself, lib/format/ nothing but lib/common/, and an
#   operation's folder lib/common/, lib/format/ and itself only, but for
#   the uses LAYERS below allows (lib/inspect/ holds what analyses share;
#   report is built on stats); the same holds
#   for which internal headers (lib/FOLDER/*.h) a file includes.
#
#     bash tests/call_cycles.sh OBJDIR [LIBDIR]
#
# OBJDIR: build/lib/CMakeFiles/evtool_objects.dir; LIBDIR: the sources
# (lib/ beside this script by default; tests/call_cycles_test.sh gives
# its own to show that each rule fails).
#
# Object files whose source no longer exists (left in an incremental build
# folder after a file moved) are ignored.
set -euo pipefail

LAYERS='format->common stats->inspect export->inspect report->inspect report->stats export->stats'

dir=${1:?usage: call_cycles.sh OBJDIR [LIBDIR]}
lib=$(cd "${2:-$(dirname "$0")/../lib}" && pwd)
[ -d "$dir" ] || { echo "call_cycles: no folder $dir" >&2; exit 2; }

# Internal headers included across the layers.
bad_include=0
for src in "$lib"/*/*.c "$lib"/*/*.h; do
	from=${src#"$lib"/}
	from=${from%%/*}
	for h in $(sed -n 's/^#include "\([^"/]*\.h\)".*/\1/p' "$src"); do
		owner=$(cd "$lib" && ls -d */"$h" 2>/dev/null | head -1)
		to=${owner%%/*}
		[ -n "$to" ] && [ "$to" != "$from" ] || continue
		[ "$from" != common ] && [ "$from" != format ] &&
			{ [ "$to" = format ] || [ "$to" = common ]; } && continue
		case " $LAYERS " in *" $from->$to "*) continue ;; esac
		echo "layers: lib/${src#"$lib"/} includes lib/$owner"
		bad_include=1
	done
done

objects=$(find "$dir" -name '*.o' | sort)
[ -n "$objects" ] || { echo "call_cycles: no object files in $dir" >&2; exit 2; }

for o in $objects; do
	f=${o#"$dir"/}
	f=${f%.o}
	[ -f "$lib/$f" ] || continue
	nm "$o" | awk -v f="$f" '
		$2 ~ /^[TDBR]$/ { print "D", f, $3 }
		$1 == "U"       { print "U", f, $2 }'
done | awk -v layers="$LAYERS" '
	function folder(path) { sub(/\/.*/, "", path); return path }
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
			base = from != "common" && from != "format" &&
			       (to == "format" || to == "common")
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
	}' && [ "$bad_include" = 0 ] && echo "call_cycles: no two files of lib/ call each other; the layers hold"
