#!/usr/bin/env bash
# Interop check: logs written by evtool must read, with the ghc-events library,
# as the same events as their input (see EvCheck.hs for what "same" means and
# how ghc-events assigns caps).
#
#   tests/interop/run.sh EVTOOL BUILD_DIR [LOG_DIR...]
#
# EVTOOL     the evtool binary to test
# BUILD_DIR  where evcheck is built (objects and binary; never the source tree)
# LOG_DIR    folders whose *.eventlog are checked; default: testdata/ and the
#            corpus ($EVTOOL_CORPUS, else ../shared/corpus beside the repo)
#            when it exists
#
# For every log that ghc-events can read; a truncated one gets only the
# reblock check, with exit status 3:
#   cat      EVTOOL cat LOG -o a.eventlog: byte-identical to LOG,
#            `evcheck same LOG a.eventlog` and `EVTOOL validate a.eventlog`
#   reblock  EVTOOL cat --reblock LOG -o b.eventlog:
#            `evcheck same-per-cap LOG b.eventlog` and `EVTOOL validate
#            b.eventlog`
#   truncate LOG cut with head -c at k/9 of its events' bytes, k = 1..8 (and
#            a truncated LOG as it is): EVTOOL truncate CUT -o c.eventlog exits 3 and
#            `evcheck same CUT c.eventlog` (ghc-events reads the complete
#            events of CUT); `EVTOOL validate` passes c.eventlog when the
#            binary has that command (but for references to caps and
#            capsets whose creation events the cut dropped: GHC writes
#            them in the global block, last)
#   filter   EVTOOL filter LOG -o f.eventlog (no selector, exit 3 for a
#            truncated LOG): `evcheck same LOG f.eventlog`; with --class gc:
#            `evcheck count` reads as many events as evtool kept; both pass
#            `EVTOOL validate` when the binary has that command
#   sort     EVTOOL sort LOG -o s.eventlog (exit 3 for a truncated LOG):
#            `evcheck dump` of it (block lines left out) equals `evcheck
#            dump LOG` sorted stably by time, the order `ghc-events show`
#            prints; `EVTOOL validate --sorted` passes it
#   show     EVTOOL show LOG (exit 3 for a truncated LOG) prints what
#            `evcheck show LOG` prints: ghc-events' own ppEventLog text,
#            block markers included as current ghc-events lists them. Three
#            texts changed after ghc-events 0.17 (the library installed
#            here) and are compared in their 0.17 form: "stack overflow,
#            size N" (0.17: "stack overflow"), status 18 "blocked in
#            throwTo" (0.17: "waiting for data to be globalised"), and a
#            ticky definition's ", itbl: X" (0.17: none). The corpus's
#            .reference files pin the current form (tests/show/corpus.sh).
# Then, on testdata/ (and the corpus when present):
#   truncate-gz testdata/killed-blocks.eventlog.gz (a SIGKILLed program's log,
#            gzip'd) decompressed: EVTOOL truncate of it exits 3, `evcheck
#            show` of the repair prints what `EVTOOL show` prints of the
#            input's complete events, and `evcheck same` and `EVTOOL
#            validate` pass
#   merge    EVTOOL merge of the merge-a/b/c processes (two and three), of
#            a log with itself, of a log with a gzip input, of every
#            complete testdata log, of prof-a with itself (shifted so that
#            its censuses coincide) and with prof-b, of a log with the
#            header Mercury's runtime writes with itself, of the two
#            sessions of merge-a and merge-b concatenated, extracted with
#            truncate --session (merge refuses the two-session log: exit 2,
#            nothing written), and of GHC 8.2.2 with 8.6.5 (--widen):
#            `evcheck count` of the output is the sum of the inputs',
#            `evcheck caps` agrees, and `EVTOOL validate` passes it when the
#            binary has that command
#   sweep    tests/sweep/sweep.py --evcheck over testdata, then the corpus:
#            every writing command's output reads with ghc-events as many
#            events as evtool wrote, and the same as the input's where the
#            command keeps them all (reblock, sort, redact, archive, merge
#            with itself); needs python3
# Prints one line per check, then "N passed, M failed"; exits 1 if any check
# failed, 2 on a setup error (no evtool, no ghc, build failure).
set -euo pipefail

usage() {
  echo "usage: $0 EVTOOL BUILD_DIR [LOG_DIR...]" >&2
  exit 2
}

[ $# -ge 2 ] || usage
evtool=$1
build=$2
shift 2

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ $# -eq 0 ]; then
  set -- "$repo/testdata"
  corpus=${EVTOOL_CORPUS:-$repo/../shared/corpus}
  if [ -d "$corpus" ]; then
    set -- "$@" "$(cd "$corpus" && pwd)"
  fi
fi

if ! command -v "$evtool" >/dev/null 2>&1; then
  echo "run.sh: evtool not found or not executable: $evtool" >&2
  exit 2
fi

# Without GHC and ghc-events the check cannot run: skip (exit 77, which
# ctest reports as skipped) unless EVTOOL_REQUIRE_INTEROP=1, as in CI.
if ! command -v ghc >/dev/null 2>&1 || ! ghc-pkg --simple-output list ghc-events 2>/dev/null | grep -q ghc-events; then
  if [ "${EVTOOL_REQUIRE_INTEROP:-0}" = 1 ]; then
    echo "run.sh: ghc and the ghc-events library are required (apt-get install ghc libghc-ghc-events-dev)" >&2
    exit 2
  fi
  echo "skip: ghc or ghc-events not installed"
  exit 77
fi

# Build evcheck unless the binary is newer than its source.
mkdir -p "$build"
evcheck="$build/evcheck"
if [ ! -x "$evcheck" ] || [ "$here/EvCheck.hs" -nt "$evcheck" ]; then
  echo "building $evcheck"
  if ! ghc -O1 "$here/EvCheck.hs" -outputdir "$build" -o "$evcheck" \
       >"$build/ghc.log" 2>&1; then
    cat "$build/ghc.log" >&2
    echo "run.sh: building evcheck failed" >&2
    exit 2
  fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0

# Output of a command squeezed onto one line, for a FAIL reason.
one_line() {
  tr '\n\t' '  ' <"$1" | tr -s ' ' | sed "s|$tmp/||g; s/^ //; s/ \$//" | cut -c1-800
}

# True when evtool info calls the log complete (it ends with the data end).
is_complete() {
  # Read info's whole output first: grep -q stops reading at the match,
  # and evtool, killed by SIGPIPE as cat is, fails the pipeline.
  local info
  info=$("$evtool" info "$1" 2>/dev/null) || true
  grep -q '^  status *complete$' <<<"$info"
}

pass() {
  echo "ok $1 $2"
  passed=$((passed + 1))
}

fail() {
  echo "FAIL $1 $2: $3"
  failed=$((failed + 1))
}

check_cat() {
  local log=$1 out="$tmp/a.eventlog" rc=0 reason=""
  rm -f "$out"
  "$evtool" cat "$log" -o "$out" >"$tmp/evtool.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    fail cat "$log" "evtool cat exited $rc: $(one_line "$tmp/evtool.txt")"
    return
  fi
  if [ ! -f "$out" ]; then
    fail cat "$log" "evtool cat wrote no output file"
    return
  fi
  if ! cmp "$log" "$out" >"$tmp/cmp.txt" 2>&1; then
    reason="not byte-identical ($(one_line "$tmp/cmp.txt"))"
  fi
  if ! "$evtool" validate "$out" >"$tmp/validate.txt" 2>&1; then
    reason="${reason:+$reason; }evtool validate: $(one_line "$tmp/validate.txt")"
  fi
  rc=0
  "$evcheck" same "$log" "$out" >"$tmp/same.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    reason="${reason:+$reason; }evcheck same exited $rc: $(one_line "$tmp/same.txt")"
  fi
  if [ -n "$reason" ]; then
    fail cat "$log" "$reason"
  else
    pass cat "$log"
  fi
}

# A truncated input is re-blocked too: evtool keeps its complete events
# and exits 3; ghc-events must read the same complete events from both.
check_reblock() {
  local log=$1 want_rc=$2 out="$tmp/b.eventlog" rc=0
  rm -f "$out"
  "$evtool" cat --reblock "$log" -o "$out" >"$tmp/evtool.txt" 2>&1 || rc=$?
  if [ "$rc" -ne "$want_rc" ]; then
    fail reblock "$log" "evtool cat --reblock exited $rc: $(one_line "$tmp/evtool.txt")"
    return
  fi
  if [ ! -f "$out" ]; then
    fail reblock "$log" "evtool cat --reblock wrote no output file"
    return
  fi
  rc=0
  "$evcheck" same-per-cap "$log" "$out" >"$tmp/same.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    fail reblock "$log" "evcheck same-per-cap exited $rc: $(one_line "$tmp/same.txt")"
  elif ! "$evtool" validate "$out" >"$tmp/validate.txt" 2>&1; then
    fail reblock "$log" "evtool validate: $(one_line "$tmp/validate.txt")"
  else
    pass reblock "$log"
  fi
}

# `evtool truncate` of a cut log must keep exactly what ghc-events reads
# from the cut log, and write a complete log.
has_validate=0
if "$evtool" help validate >/dev/null 2>&1; then
  has_validate=1
fi

check_truncate() {
  local log=$1 cut=$2 out="$tmp/c.eventlog" name rc=0
  name="$log@$cut"
  rm -f "$out" "$tmp/cut.eventlog"
  head -c "$cut" "$log" >"$tmp/cut.eventlog"
  "$evtool" truncate "$tmp/cut.eventlog" -o "$out" >"$tmp/evtool.txt" 2>&1 || rc=$?
  if [ "$rc" -eq 1 ] && grep -q 'nothing to recover\|no events to recover' "$tmp/evtool.txt"; then
    echo "skip truncate $name (no complete event)"
    return
  fi
  if [ "$rc" -ne 3 ]; then
    fail truncate "$name" "evtool truncate exited $rc: $(one_line "$tmp/evtool.txt")"
    return
  fi
  rc=0
  "$evcheck" same "$tmp/cut.eventlog" "$out" >"$tmp/same.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    fail truncate "$name" "evcheck same exited $rc: $(one_line "$tmp/same.txt")"
    return
  fi
  if ! is_complete "$out"; then
    fail truncate "$name" "the output is not complete"
    return
  fi
  if [ "$has_validate" = 1 ]; then
    rc=0
    "$evtool" validate "$out" >"$tmp/validate.txt" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ] && ! only_lost_creations "$log" "$out"; then
      fail truncate "$name" "evtool validate exited $rc: $(one_line "$tmp/validate.txt")"
      return
    fi
  fi
  pass truncate "$name"
}

# How many creation events (CAP_CREATE, CAPSET_CREATE, CAPSET_ASSIGN_CAP) a
# log holds.
creations() {
  "$evtool" show --follow --format ndjson "$1" 2>/dev/null |
    grep -c '"type":"\(CAP_CREATE\|CAPSET_CREATE\|CAPSET_ASSIGN_CAP\)"' || true
}

# True when validate.txt finds only references to caps and capsets never
# created, and the cut dropped creation events of LOG: GHC posts them in
# the global block, which it writes last, so a prefix can hold cap 0's
# CAP_CREATE and not cap 1's.
only_lost_creations() {
  if grep '^evtool validate: .*\[[a-z-]*\]$' "$tmp/validate.txt" |
       grep -qv '\[\(cap-ref\|cap-capset\|capset-ref\)\]$'; then
    return 1
  fi
  [ "$(creations "$2")" -lt "$(creations "$1")" ]
}

# Passes when the binary has no validate command yet.
validates() {
  [ "$has_validate" = 0 ] || "$evtool" validate "$@" >"$tmp/validate.txt" 2>&1
}

# evtool filter: the identity selection reads as the same events; a class
# selection reads, with as many events as evtool kept.
check_filter() {
  local log=$1 want_rc=$2 out="$tmp/f.eventlog" rc=0 kept n
  rm -f "$out"
  "$evtool" filter "$log" -o "$out" >"$tmp/evtool.txt" 2>&1 || rc=$?
  if [ "$rc" -ne "$want_rc" ]; then
    fail filter "$log" "evtool filter exited $rc: $(one_line "$tmp/evtool.txt")"
    return
  fi
  rc=0
  "$evcheck" same "$log" "$out" >"$tmp/same.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    fail filter "$log" "evcheck same exited $rc: $(one_line "$tmp/same.txt")"
    return
  fi
  if ! validates "$out"; then
    fail filter "$log" "evtool validate: $(one_line "$tmp/validate.txt")"
    return
  fi
  rc=0
  "$evtool" filter --class gc "$log" -o "$out" >"$tmp/evtool.txt" 2>&1 || rc=$?
  kept=$("$evtool" info --json "$out" 2>/dev/null |
         sed -n 's/^ *"events": \([0-9]*\),$/\1/p' | sed -n 1p)
  n=$("$evcheck" count "$out" 2>"$tmp/count.txt") || n="failed"
  if [ "$rc" -ne "$want_rc" ] || [ "$n" != "$kept" ]; then
    fail filter "$log" "--class gc: exit $rc, evcheck count '$n', evtool kept '$kept': $(one_line "$tmp/count.txt")"
  elif ! validates "$out"; then
    fail filter "$log" "--class gc: evtool validate: $(one_line "$tmp/validate.txt")"
  else
    pass filter "$log"
  fi
}

# evtool sort: ghc-events reads the output as the input's events in a
# stable time order (ghc-events' sortEvents, what `ghc-events show` prints).
check_sort() {
  local log=$1 want_rc=$2 out="$tmp/s.eventlog" rc=0
  rm -f "$out"
  "$evtool" sort "$log" -o "$out" >"$tmp/evtool.txt" 2>&1 || rc=$?
  if [ "$rc" -ne "$want_rc" ]; then
    fail sort "$log" "evtool sort exited $rc: $(one_line "$tmp/evtool.txt")"
    return
  fi
  "$evcheck" dump "$log" 2>/dev/null | grep -v '^BLOCK ' |
    LC_ALL=C sort -s -n -k1,1 >"$tmp/want.txt" || true
  "$evcheck" dump "$out" 2>"$tmp/dump.txt" | grep -v '^BLOCK ' >"$tmp/got.txt" || true
  if ! cmp -s "$tmp/want.txt" "$tmp/got.txt"; then
    fail sort "$log" "not the input in stable time order: $(diff "$tmp/want.txt" "$tmp/got.txt" | head -n 4 | tr '\n' ' ' | cut -c1-400)"
  elif [ -s "$tmp/dump.txt" ]; then
    fail sort "$log" "ghc-events: $(one_line "$tmp/dump.txt")"
  elif ! validates --sorted "$out"; then
    fail sort "$log" "evtool validate --sorted: $(one_line "$tmp/validate.txt")"
  else
    pass sort "$log"
  fi
}

# The forms ghc-events 0.17 prints of texts that changed since (above).
as_0_17() {
  sed -e 's/(stack overflow, size [0-9]*)/(stack overflow)/' \
      -e 's/(waiting for data to be globalised)/(blocked in throwTo)/' \
      -e 's/, itbl: [0-9a-f]*$//' "$1"
}

check_show() {
  local log=$1 want_rc=$2 rc=0
  "$evtool" show "$log" >"$tmp/show.txt" 2>"$tmp/evtool.txt" || rc=$?
  if [ "$rc" -ne "$want_rc" ]; then
    fail show "$log" "evtool show exited $rc: $(one_line "$tmp/evtool.txt")"
    return
  fi
  "$evcheck" show "$log" >"$tmp/evcheck-show.txt" 2>/dev/null || true
  as_0_17 "$tmp/show.txt" >"$tmp/got.txt"
  as_0_17 "$tmp/evcheck-show.txt" >"$tmp/want.txt"
  if ! cmp -s "$tmp/want.txt" "$tmp/got.txt"; then
    fail show "$log" "differs from ghc-events: $(diff "$tmp/want.txt" "$tmp/got.txt" | head -n 4 | tr '\n' ' ' | cut -c1-400)"
  else
    pass show "$log"
  fi
}

shopt -s nullglob
for dir in "$@"; do
  if [ ! -d "$dir" ]; then
    echo "skip (no such folder): $dir"
    continue
  fi
  for log in "$dir"/*.eventlog; do
    if ! "$evcheck" count "$log" >/dev/null 2>"$tmp/count.txt"; then
      echo "skip (ghc-events cannot read): $log"
      continue
    fi
    size=$(wc -c <"$log")
    # the events start after "datb", the header's last magic
    data=$(LC_ALL=C grep -obUa datb "$log" | head -n 1 | cut -d: -f1)
    data=$((${data:-0} + 4))
    if is_complete "$log"; then
      check_cat "$log"
      check_reblock "$log" 0
      for k in 1 2 3 4 5 6 7 8; do
        check_truncate "$log" $((data + (size - data) * k / 9))
      done
      check_filter "$log" 0
      check_sort "$log" 0
      check_show "$log" 0
    else
      check_reblock "$log" 3
      check_truncate "$log" "$size"
      check_filter "$log" 3
      check_sort "$log" 3
      check_show "$log" 3
    fi
  done
done

# evtool merge: ghc-events reads every event of every input from the
# merged log, with the caps of their blocks; it validates.
check_merge() { # NAME OPTIONS -- INPUTS...
  local name=$1 out="$tmp/m.eventlog" opts=() want=0 n rc=0 f
  shift
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  for f in "$@"; do
    gzip -dcf "$f" >"$tmp/count-in.eventlog"
    n=$("$evcheck" count "$tmp/count-in.eventlog" 2>/dev/null) ||
      { fail merge "$name" "evcheck cannot count $f"; return; }
    want=$((want + n))
  done
  rm -f "$out"
  "$evtool" merge "${opts[@]}" "$@" -o "$out" >"$tmp/evtool.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    fail merge "$name" "evtool merge exited $rc: $(one_line "$tmp/evtool.txt")"
    return
  fi
  n=$("$evcheck" count "$out" 2>"$tmp/count.txt") || n="failed"
  if [ "$n" != "$want" ]; then
    fail merge "$name" "evcheck count $n, inputs $want: $(one_line "$tmp/count.txt")"
  elif ! "$evcheck" caps "$out" >"$tmp/caps.txt" 2>&1; then
    fail merge "$name" "evcheck caps: $(one_line "$tmp/caps.txt")"
  elif "$evtool" help validate >/dev/null 2>&1 &&
       ! "$evtool" validate "$out" >"$tmp/validate.txt" 2>&1; then
    fail merge "$name" "evtool validate: $(one_line "$tmp/validate.txt")"
  else
    pass merge "$name"
  fi
}

# A killed program's gzip'd log: the repair holds exactly the events
# evtool reads from the input, as ghc-events reads them.
check_truncate_gz() {
  local gz=$1 log="$tmp/killed.eventlog" out="$tmp/k.eventlog" rc=0
  gzip -dc "$gz" >"$log"
  rm -f "$out"
  "$evtool" truncate "$gz" -o "$out" >"$tmp/evtool.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 3 ]; then
    fail truncate-gz "$gz" "evtool truncate exited $rc: $(one_line "$tmp/evtool.txt")"
    return
  fi
  rc=0
  "$evtool" show "$log" >"$tmp/show.txt" 2>"$tmp/evtool.txt" || rc=$?
  if [ "$rc" -ne 3 ]; then
    fail truncate-gz "$gz" "evtool show of the input exited $rc: $(one_line "$tmp/evtool.txt")"
    return
  fi
  if ! "$evcheck" show "$out" >"$tmp/evcheck-show.txt" 2>"$tmp/same.txt"; then
    fail truncate-gz "$gz" "ghc-events cannot read the repair: $(one_line "$tmp/same.txt")"
    return
  fi
  as_0_17 "$tmp/show.txt" >"$tmp/got.txt"
  as_0_17 "$tmp/evcheck-show.txt" >"$tmp/want.txt"
  if ! cmp -s "$tmp/want.txt" "$tmp/got.txt"; then
    fail truncate-gz "$gz" "ghc-events reads other events from the repair than evtool from the input: $(diff "$tmp/want.txt" "$tmp/got.txt" | head -n 4 | tr '\n' ' ' | cut -c1-400)"
  elif ! "$evcheck" same "$log" "$out" >"$tmp/same.txt" 2>&1; then
    fail truncate-gz "$gz" "evcheck same: $(one_line "$tmp/same.txt")"
  elif ! validates --strict "$out"; then
    fail truncate-gz "$gz" "evtool validate: $(one_line "$tmp/validate.txt")"
  else
    pass truncate-gz "$gz"
  fi
}

td="$repo/testdata"
check_truncate_gz "$td/killed-blocks.eventlog.gz"
check_merge "merge-a+b" -- "$td/merge-a.eventlog" "$td/merge-b.eventlog"
check_merge "merge-a+b+c" -- "$td/merge-a.eventlog" "$td/merge-b.eventlog" "$td/merge-c.eventlog"
check_merge "merge-a+a" -- "$td/merge-a.eventlog" "$td/merge-a.eventlog"
gzip -c "$td/merge-b.eventlog" >"$tmp/merge-b.eventlog.gz"
check_merge "merge-c+b.gz" -- "$td/merge-c.eventlog" "$tmp/merge-b.eventlog.gz"
all=()
for log in "$td"/*.eventlog; do
  is_complete "$log" && all+=("$log")
done
check_merge "testdata (${#all[@]} logs)" -- "${all[@]}"
# A -hc -p log whose census holds time-profile ticks, with itself shifted so
# that the censuses coincide, and with the other replica; a log with the
# header Mercury's runtime writes (39 its variable-size type), with itself.
for shift in 0 1ns 1us -1us; do
  check_merge "prof-a+prof-a --shift 2=$shift" --shift "2=$shift" -- \
    "$td/prof-a.eventlog" "$td/prof-a.eventlog"
done
check_merge "prof-a+prof-b" -- "$td/prof-a.eventlog" "$td/prof-b.eventlog"
# Two runs' logs concatenated (two sessions): merge refuses the log (exit
# 2, nothing written); its sessions extracted merge like any two logs.
check_merge_sessions() {
  local both="$tmp/two-runs.eventlog" out="$tmp/m.eventlog" rc=0
  cat "$td/merge-a.eventlog" "$td/merge-b.eventlog" >"$both"
  rm -f "$out"
  "$evtool" merge "$both" -o "$out" >"$tmp/evtool.txt" 2>&1 || rc=$?
  if [ "$rc" -ne 2 ] || [ -e "$out" ]; then
    fail merge "two-runs" "evtool merge exited $rc (not 2, or wrote a log): $(one_line "$tmp/evtool.txt")"
    return
  fi
  pass merge "two-runs refused"
  "$evtool" truncate -q --session 1 "$both" -o "$tmp/s1.eventlog"
  "$evtool" truncate -q --session 2 "$both" -o "$tmp/s2.eventlog"
  check_merge "two-runs sessions 1+2" -- "$tmp/s1.eventlog" "$tmp/s2.eventlog"
}
check_merge_sessions
if command -v python3 >/dev/null 2>&1; then
  python3 "$here/../cli/cases/redeclare.py" --mercury "$td/heap-a.eventlog" \
    "$tmp/mercury-heap-a.eventlog"
  check_merge "mercury-heap-a+itself" -- "$tmp/mercury-heap-a.eventlog" \
    "$tmp/mercury-heap-a.eventlog"
fi
corpus=${EVTOOL_CORPUS:-$repo/../shared/corpus}
if [ -f "$corpus/hello-ghc-8.2.2.eventlog" ] && [ -f "$corpus/hello-ghc-8.6.5.eventlog" ]; then
  check_merge "ghc-8.2.2+8.6.5 --widen" --widen -- \
    "$corpus/hello-ghc-8.2.2.eventlog" "$corpus/hello-ghc-8.6.5.eventlog"
fi

# The sweep (tests/sweep/sweep.py, also run without ghc-events by ctest's
# `sweep`) with the ghc-events library: every log that every writing
# command makes of every testdata (and corpus) log reads with ghc-events
# as the events evtool wrote, and as the input's where the command keeps
# them all. One check per set of rows; its table goes to sweep-ROWS.txt.
check_sweep() { # ROWS
  local rows=$1 rc=0
  python3 "$here/../sweep/sweep.py" --rows "$rows" --evcheck "$evcheck" \
    "$evtool" "$td" "$corpus" >"$tmp/sweep.txt" 2>&1 || rc=$?
  if [ "$rc" -eq 77 ]; then
    return
  elif [ "$rc" -ne 0 ]; then
    fail sweep "$rows" "$(grep -E '^FAIL|runs' "$tmp/sweep.txt" | head -20 | tr '\n' ' ')"
  else
    pass sweep "$rows ($(grep -E 'runs' "$tmp/sweep.txt"))"
  fi
}
if command -v python3 >/dev/null 2>&1; then
  check_sweep testdata
  check_sweep corpus
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
