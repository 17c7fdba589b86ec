#!/usr/bin/env bash
# Regenerate the real GHC eventlogs in testdata/ from testdata/src/*.hs.
#
#   bash testdata/generate.sh            # all logs; needs ghc (apt-get install ghc)
#   bash testdata/generate.sh NAME...    # only these runs, e.g. killed-blocks
#
# NAMEs: threads-n1 threads-n2 threads-n4 sparks-n2 gc-n2 user-n1 heap-n1
# heap-pair (heap-a and heap-b always run together) hpt-n1 prof-n2
# prof-pair (prof-a and prof-b always run together) nonmoving-n2
# killed-sigkill merge (merge-a, -b and -c always run together)
# killed-blocks spans (spans-a and spans-b always run together) heapdiff
# (the six heapdiff-{a,b}-{hT,hc,hy} logs always run together). Logs not
# named are left as they are.
#
# The programs are compiled in a temporary folder (removed afterwards; set
# KEEP_WORK=1 to keep it and print its path). Each run writes
# testdata/NAME.eventlog (+RTS -l -olFILE) and the RTS's own summary
# testdata/NAME.rts-s.txt (+RTS -sFILE); killed-blocks writes only
# testdata/killed-blocks.eventlog.gz. The heap-profile runs hpt-n1 and
# prof-n2 also keep the RTS's own heap profile as testdata/NAME.hp; prof-n2,
# prof-a and prof-b are profiled builds (-prof -fprof-auto, need ghc-prof).
set -euo pipefail

all_runs=(threads-n1 threads-n2 threads-n4 sparks-n2 gc-n2 user-n1 heap-n1
          heap-pair hpt-n1 prof-n2 prof-pair nonmoving-n2 killed-sigkill merge
          killed-blocks spans heapdiff)
# program (testdata/src/PROG.hs) each run needs
declare -A prog_of=(
  [threads-n1]=threads [threads-n2]=threads [threads-n4]=threads
  [sparks-n2]=sparks [gc-n2]=gc [user-n1]=user [heap-n1]=heap [heap-pair]=heap
  [hpt-n1]=heap [prof-n2]=heap-prof [prof-pair]=heap-prof
  [nonmoving-n2]=nonmoving [killed-sigkill]=sleeper [merge]=worker
  [killed-blocks]=flooder [spans]=spans [heapdiff]=heapdiff
)
declare -A wanted=()
if [[ $# -eq 0 ]]; then
  for r in "${all_runs[@]}"; do wanted[$r]=1; done
else
  for r in "$@"; do
    [[ "$r" == merge-[abc] ]] && r=merge
    [[ "$r" == heap-[ab] ]] && r=heap-pair
    [[ "$r" == spans-[ab] ]] && r=spans
    [[ "$r" == heapdiff-* ]] && r=heapdiff
    [[ "$r" == prof-[ab] ]] && r=prof-pair
    [[ -n "${prog_of[$r]:-}" ]] || {
      echo "generate.sh: unknown run '$r' (known: ${all_runs[*]})" >&2; exit 2; }
    wanted[$r]=1
  done
fi
want() { [[ -n "${wanted[$1]:-}" ]]; }

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

# compile NAME: testdata/src/NAME.hs -> $work/NAME; NAME-prof is the
# profiled build of NAME.hs (every function a cost centre). GHC names the
# source as it was given in each cost centre's location
# (HEAP_PROF_COST_CENTRE, 161), so it is given relative to the tree's
# top, testdata/src/NAME.hs: the logs name no local folder.
compile() {
  local name=$1 flags=()
  if [[ "$name" == *-prof ]]; then
    name=${name%-prof} flags=(-prof -fprof-auto)
  fi
  mkdir -p "$work/build/$1"
  (cd "$here/.." && ghc -O1 -threaded -rtsopts -eventlog "${flags[@]}" -v0 \
      -outputdir "$work/build/$1" -o "$work/$1" "testdata/src/$name.hs")
}

compiled=" "
for r in "${all_runs[@]}"; do
  want "$r" || continue
  p=${prog_of[$r]}
  [[ "$compiled" == *" $p "* ]] && continue
  echo "compiling $p.hs"
  compile "$p"
  compiled+="$p "
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

# save_hp LOG PROG: keep the RTS's heap profile of the run just made
# ($work/PROG.hp) as testdata/LOG.hp.
save_hp() {
  cp "$work/$2.hp" "$out/$1.hp"
}

want threads-n1 && run threads-n1 threads -- -N1
want threads-n2 && run threads-n2 threads -- -N2
want threads-n4 && run threads-n4 threads -- -N4
want sparks-n2 && run sparks-n2 sparks -- -N2
want gc-n2 && run gc-n2 gc -- -N2 -A64k
want user-n1 && run user-n1 user -- -N1
want heap-n1 && run heap-n1 heap -- -N1 -hT -i0.01
# Two heap-profiled processes started together (no profiled RTS here, so
# both break down by closure type, -hT; -hy/-hb need one), kept only when
# at least one sample of each overlaps one of the other once their clocks
# are lined up by WALL_CLOCK_TIME (src/heapoverlap.py): a merge must keep
# such samples whole and apart. A sample lasts ~10 us and they come every
# ~5 ms, so a pair overlaps about one run in five; up to 40 tries (needs
# python3 to check; without it the first pair is kept).
if want heap-pair; then
  for try in $(seq 1 40); do
    run heap-a heap -- -N1 -hT -i0.005 &
    pa=$!
    run heap-b heap -- -N2 -hT -i0.005 &
    pb=$!
    wait "$pa"; wait "$pb"
    command -v python3 >/dev/null || break
    if python3 "$src/heapoverlap.py" "$out/heap-a.eventlog" "$out/heap-b.eventlog"; then
      echo "heap-pair: overlapping samples after $try run(s)"
      break
    fi
    (( try < 40 )) || { echo "generate.sh: no heap-a/heap-b pair overlapped in 40 runs" >&2; exit 1; }
  done
fi
# The same program; the RTS's own .hp of the run is kept beside the log.
if want hpt-n1; then
  run hpt-n1 heap -- -N1 -hT -i0.02 && save_hp hpt-n1 heap
fi
# Profiled: cost-centre time samples (-p: PROF_SAMPLE_COST_CENTRE, 167)
# and a heap profile by cost-centre stack (-hc), .hp kept.
if want prof-n2; then
  run prof-n2 heap-prof -- -N2 -p -hc -i0.02 && save_hp prof-n2 heap-prof
fi
# Two profiled processes started together, each with a time profile and a
# heap profile by cost-centre stack (-p -hc), as two replicas of a service
# with the same -i. The profiling timer posts its PROF_SAMPLE_COST_CENTRE
# (167) events into the global buffer while a census is being written, so
# a census can hold ticks between its begin and end; the pair is kept only
# when one of prof-a's does (src/heapoverlap.py --tick-inside): a merge of
# prof-a with itself or with prof-b must keep that census whole, ticks
# included, and apart from the other input's. A census takes ~10 us and a
# tick comes every 1 ms, so about one run in six holds one; up to 60 tries
# (without python3 the first pair is kept). Their samples rarely overlap
# once aligned (unlike heap-a/heap-b, no overlap is waited for): the merge
# tests shift copies of them so that samples coincide.
if want prof-pair; then
  for try in $(seq 1 60); do
    run prof-a heap-prof -- -N2 -p -hc -i0.005 &
    pa=$!
    run prof-b heap-prof -- -N2 -p -hc -i0.005 &
    pb=$!
    wait "$pa"; wait "$pb"
    command -v python3 >/dev/null || break
    if python3 "$src/heapoverlap.py" --tick-inside "$out/prof-a.eventlog" \
         "$out/prof-b.eventlog"; then
      echo "prof-pair: a census with ticks inside after $try run(s)"
      break
    fi
    (( try < 60 )) || { echo "generate.sh: no prof-a/prof-b pair in 60 runs" >&2; exit 1; }
  done
fi
# The default -l classes already give the nonmoving events 200-206; -ln adds
# class n: NONMOVING_HEAP_CENSUS (207) and the collector's LOG_MSGs (16).
want nonmoving-n2 && run nonmoving-n2 nonmoving -- -N2 --nonmoving-gc -ln

# Killed with SIGKILL after ~0.3 s: no data-end marker.
# GHC 9.0 writes a capability's events only when its 2 MiB buffer fills or
# at exit, so this log holds just the header (see README.md).
if want killed-sigkill; then
  (cd "$work" && exec ./sleeper +RTS -N1 -l -olkilled-sigkill.eventlog \
       -skilled-sigkill.rts-s.txt -RTS >killed-sigkill.stdout) &
  pid=$!
  sleep 0.3
  kill -9 "$pid"
  wait "$pid" 2>/dev/null || true
  save killed-sigkill
fi

# Three worker processes started 50 ms apart, running at the same time.
if want merge; then
  run merge-a worker a -- -N1 &
  pa=$!
  sleep 0.05
  run merge-b worker b -- -N2 &
  pb=$!
  sleep 0.05
  run merge-c worker c -- -N3 &
  pc=$!
  wait "$pa"; wait "$pb"; wait "$pc"
fi

# The user's own phases (START/STOP user events and markers) around
# sleeps of 20 ms (spans-a) and 30 ms (spans-b): the base and new run of a
# gate on the spans (stats --spans, --fail-if 'span:sleep.p99>+10%').
if want spans; then
  run spans-a spans 20 -- -N1
  run spans-b spans 30 -- -N1
fi

# Two versions of one program whose heaps differ in a known band (b also
# keeps 20,000 boxed Doubles), profiled three ways: by closure type (-hT,
# the plain build), by cost-centre stack (-hc) and by type (-hy, both the
# profiled build): heapdiff-a-hT against heapdiff-b-hT, and so on.
if want heapdiff; then
  echo "compiling heapdiff.hs profiled"
  compile heapdiff-prof
  for v in a b; do
    run "heapdiff-$v-hT" heapdiff "$v" -- -N1 -hT -i0.02
    run "heapdiff-$v-hc" heapdiff-prof "$v" -- -N1 -hc -i0.02
    run "heapdiff-$v-hy" heapdiff-prof "$v" -- -N1 -hy -i0.02
  done
fi

# Killed with SIGKILL once whole blocks are on disk: flooder.hs fills the
# 2 MiB buffers of both caps in about 0.1 s each. Poll the size every 10 ms
# and kill once the log is past 4.5 MB (more than two blocks: the header is
# 2,688 bytes, a block just under 2 MiB) and did not change since the last
# poll, so that no block write is under way. No -s: the RTS writes it at
# exit. Only the gzip -9 -n file (no name or time in its header) is kept.
if want killed-blocks; then
  log=killed-blocks
  rm -f "$work/$log.eventlog"
  (cd "$work" && exec ./flooder +RTS -N2 -l "-ol$log.eventlog" -RTS \
       >"$log.stdout") &
  pid=$!
  start=$SECONDS prev=-1
  while :; do
    size=$(stat -c %s "$work/$log.eventlog" 2>/dev/null || echo 0)
    (( size > 4500000 && size == prev )) && break
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "generate.sh: flooder exited before it was killed" >&2; exit 1
    fi
    if (( SECONDS - start >= 20 )); then
      kill -9 "$pid"; wait "$pid" 2>/dev/null || true
      echo "generate.sh: $log.eventlog still $size bytes after 20 s" >&2; exit 1
    fi
    prev=$size
    sleep 0.01
  done
  kill -9 "$pid"
  wait "$pid" 2>/dev/null || true
  echo "killed flooder at $(stat -c %s "$work/$log.eventlog") bytes"
  gzip -9 -n -c "$work/$log.eventlog" >"$out/$log.eventlog.gz"
fi

shopt -s nullglob   # killed-blocks.eventlog.gz may not exist yet
echo "testdata now holds (in $out):"
(cd "$out" && ls -l -- *.eventlog *.eventlog.gz *.rts-s.txt | awk '{printf "  %9d  %s\n", $5, $9}')
total=$(cat "$out"/*.eventlog "$out"/*.eventlog.gz | wc -c)
echo "total eventlog bytes (.gz as stored): $total"

# Sanity checks: small logs; complete logs end with the data-end marker
# ff ff, the killed ones do not; killed-blocks holds whole blocks and ends
# where its last block ends (checked by src/blockwalk.py if python3 is
# there).
status=0
gz="$out/killed-blocks.eventlog.gz"
if [[ -f "$gz" ]]; then
  size=$(stat -c %s "$gz")
  if (( size > 250000 )); then
    echo "generate.sh: killed-blocks.eventlog.gz is $size bytes (> 250 KB)" >&2
    status=1
  fi
  tail2=$(gzip -dc "$gz" | tail -c 2 | od -An -tx1 | tr -d ' \n')
  [[ "$tail2" != ffff ]] || { echo "generate.sh: killed-blocks ends with ff ff" >&2; status=1; }
  if command -v python3 >/dev/null; then
    python3 "$src/blockwalk.py" --expect-killed "$gz" || status=1
  fi
fi
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
