#!/usr/bin/env bash
# Regenerate the real GHC eventlogs in testdata/ from testdata/src/*.hs.
#
#   bash testdata/generate.sh            # needs ghc (Debian: apt-get install ghc)
#
# The programs are compiled in a temporary folder (removed afterwards; set
# KEEP_WORK=1 to keep it and print its path). Each run writes
# testdata/NAME.eventlog (+RTS -l -olFILE) and the RTS's own summary
# testdata/NAME.rts-s.txt (+RTS -sFILE).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src="$here/src"
out="$here"

command -v ghc >/dev/null || { echo "generate.sh: ghc not found (apt-get install ghc)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/evtool-testdata.XXXXXX")
if [[ "${KEEP_WORK:-0}" == 1 ]]; then
  echo "work folder: $work"
else
  trap 'rm -rf "$work"' EXIT
fi

echo "GHC: $(ghc --numeric-version)"

# compile NAME: testdata/src/NAME.hs -> $work/NAME
compile() {
  mkdir -p "$work/build/$1"
  ghc -O1 -threaded -rtsopts -eventlog -v0 \
      -outputdir "$work/build/$1" -o "$work/$1" "$src/$1.hs"
}

for p in threads sparks gc user heap nonmoving sleeper worker; do
  echo "compiling $p.hs"
  compile "$p"
done

# run LOG PROG [ARGS...] -- RTS-FLAGS...
# Runs ./PROG in $work with +RTS -l -olLOG.eventlog -sLOG.rts-s.txt
# RTS-FLAGS -RTS, then copies both files to testdata/. The paths are
# relative so that the PROGRAM_ARGS event in the log names no local folder;
# stray output such as PROG.hp stays in $work.
run() {
  local log=$1 prog=$2; shift 2
  local args=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do args+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  (cd "$work" && "./$prog" "${args[@]}" +RTS -l "-ol$log.eventlog" \
       "-s$log.rts-s.txt" "$@" -RTS >"$log.stdout")
  save "$log"
}

# save LOG: copy $work/LOG.eventlog and $work/LOG.rts-s.txt to testdata/.
save() {
  cp "$work/$1.eventlog" "$work/$1.rts-s.txt" "$out/"
}

run threads-n1 threads -- -N1
run threads-n2 threads -- -N2
run threads-n4 threads -- -N4
run sparks-n2 sparks -- -N2
run gc-n2 gc -- -N2 -A64k
run user-n1 user -- -N1
run heap-n1 heap -- -N1 -hT -i0.01
# The default -l classes already give the nonmoving events 200-206; -ln adds
# class n: NONMOVING_HEAP_CENSUS (207) and the collector's LOG_MSGs (16).
run nonmoving-n2 nonmoving -- -N2 --nonmoving-gc -ln

# Killed with SIGKILL after ~0.3 s: no data-end marker.
# GHC 9.0 writes a capability's events only when its 2 MiB buffer fills or
# at exit, so this log holds just the header (see README.md).
(cd "$work" && exec ./sleeper +RTS -N1 -l -olkilled-sigkill.eventlog \
     -skilled-sigkill.rts-s.txt -RTS >killed-sigkill.stdout) &
pid=$!
sleep 0.3
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
save killed-sigkill

# Three worker processes started 50 ms apart, running at the same time.
run merge-a worker a -- -N1 &
pa=$!
sleep 0.05
run merge-b worker b -- -N2 &
pb=$!
sleep 0.05
run merge-c worker c -- -N3 &
pc=$!
wait "$pa"; wait "$pb"; wait "$pc"

echo "wrote (in $out):"
(cd "$out" && ls -l -- *.eventlog *.rts-s.txt | awk '{printf "  %9d  %s\n", $5, $9}')
total=$(cat "$out"/*.eventlog | wc -c)
echo "total eventlog bytes: $total"

# Sanity checks: small logs; complete logs end with the data-end marker
# ff ff, the killed one does not.
status=0
for f in "$out"/*.eventlog; do
  name=$(basename "$f")
  size=$(stat -c %s "$f")
  if (( size > 300000 )); then
    echo "generate.sh: $name is $size bytes (> 300 KB): shrink the program" >&2
    status=1
  fi
  tail2=$(tail -c 2 "$f" | od -An -tx1 | tr -d ' \n')
  if [[ "$name" == killed-* ]]; then
    [[ "$tail2" != ffff ]] || { echo "generate.sh: $name ends with ff ff" >&2; status=1; }
  else
    [[ "$tail2" == ffff ]] || { echo "generate.sh: $name does not end with ff ff" >&2; status=1; }
  fi
done
if (( total > 2000000 )); then
  echo "generate.sh: the logs total $total bytes (> 2 MB)" >&2
  status=1
fi
exit "$status"
