#!/bin/bash
# Fails when two files of lib/ call each other (issue 16): A uses a
# symbol defined in B and B one defined in A. Reads the defined (T, D, B,
# R) and undefined (U) symbols of every object file with nm.
#
#     bash tests/call_cycles.sh OBJDIR   # build/lib/CMakeFiles/evtool_objects.dir
#
# Not yet run by ctest: lib/report/report_grid.c <-> report_profile.c still
# call each other; once they do not, tests/CMakeLists.txt gets
#     add_test(NAME call_cycles COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/call_cycles.sh
#              ${PROJECT_BINARY_DIR}/lib/CMakeFiles/evtool_objects.dir)
set -euo pipefail

dir=${1:?usage: call_cycles.sh OBJDIR}
[ -d "$dir" ] || { echo "call_cycles: no folder $dir" >&2; exit 2; }

objects=$(find "$dir" -name '*.o' | sort)
[ -n "$objects" ] || { echo "call_cycles: no object files in $dir" >&2; exit 2; }

for o in $objects; do
	f=${o#"$dir"/}
	nm "$o" | awk -v f="${f%.o}" '
		$2 ~ /^[TDBR]$/ { print "D", f, $3 }
		$1 == "U"       { print "U", f, $2 }'
done | awk '
	$1 == "D" { def[$3] = $2; next }
	{ use[++n] = $2 " " $3 }
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			if ((u[2] in def) && def[u[2]] != u[1])
				edge[u[1] " -> " def[u[2]]] = edge[u[1] " -> " def[u[2]]] " " u[2]
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
		exit bad
	}' && echo "call_cycles: no two files of lib/ call each other"
