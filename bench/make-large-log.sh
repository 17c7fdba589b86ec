#!/usr/bin/env bash
# Write a large real GHC eventlog for benchmarks.
#
#   bash bench/make-large-log.sh OUT.eventlog [SIZE_MB]     (SIZE_MB default 600)
#   PROGRAM=spanstorm bash bench/make-large-log.sh OUT [SIZE_MB]
#
# PROGRAM (default storm) is bench/src/PROGRAM.hs: spanstorm brackets its
# rounds with the user's START/STOP messages and markers, for
# `stats --spans` (about 580 bytes per iteration). RTS_FLAGS adds RTS
# options to the run: RTS_FLAGS='-hT -i0.05' makes a log with a heap
# profile (by closure type), for `export --format hp`.
#
# Compiles bench/src/storm.hs in a temporary folder and runs it with
# +RTS -N2 -l -ol<OUT>, scaling its iteration count so that OUT is at least
# SIZE_MB megabytes (1 MB = 1,000,000 bytes). The log is dominated by
# scheduler events (RUN_THREAD, STOP_THREAD, THREAD_WAKEUP), spread over
# many 2 MiB blocks of caps 0 and 1. Needs ghc (Debian: apt-get install ghc).
# Don't commit the output.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 OUT.eventlog [SIZE_MB]" >&2
  exit 2
fi
out=$1
size_mb=${2:-600}
if ! [[ "$size_mb" =~ ^[0-9]+$ ]] || (( size_mb < 1 )); then
  echo "make-large-log.sh: SIZE_MB must be a positive whole number" >&2
  exit 2
fi
target=$(( size_mb * 1000000 ))

command -v ghc >/dev/null || { echo "make-large-log.sh: ghc not found (apt-get install ghc)" >&2; exit 1; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
case "$out" in
  /*) ;;
  *) out="$PWD/$out" ;;
esac
mkdir -p "$(dirname "$out")"

work=$(mktemp -d "${TMPDIR:-/tmp}/evtool-storm.XXXXXX")
trap 'rm -rf "$work"' EXIT

program=${PROGRAM:-storm}
[[ -f "$here/src/$program.hs" ]] || { echo "make-large-log.sh: no bench/src/$program.hs" >&2; exit 2; }
ghc -O1 -threaded -rtsopts -eventlog -v0 -outputdir "$work" \
    -o "$work/storm" "$here/src/$program.hs"

filesize() { stat -c %s "$1"; }

# storm N writes about 545 bytes per iteration at -N2 (measured with
# GHC 9.0.2 on 2 cores; it varies a little from run to run). Start from
# that estimate plus 5%, then rerun with a larger N while short of the
# target.
bytes_per_iter=545
iters=$(( target * 105 / 100 / bytes_per_iter + 1 ))
start=$(date +%s.%N)
while :; do
  echo "running storm $iters (+RTS -N2 -l ${RTS_FLAGS:-})"
  # shellcheck disable=SC2086
  (cd "$work" && "$work/storm" "$iters" +RTS -N2 -l "-ol$out" ${RTS_FLAGS:-} -RTS >/dev/null)
  got=$(filesize "$out")
  if (( got >= target )); then
    break
  fi
  # Scale by the shortfall, with 10% headroom.
  iters=$(( iters * target / got * 110 / 100 + 1 ))
  echo "  only $got bytes; retrying"
done
end=$(date +%s.%N)
awk -v f="$out" -v b="$got" -v n="$iters" -v s="$start" -v e="$end" 'BEGIN {
  printf "%s: %d bytes (%.1f MB) from %d iterations in %.1f s\n", f, b, b / 1e6, n, e - s }'
