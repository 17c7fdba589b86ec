#!/usr/bin/env bash
# evtool export's output in a real viewer: every perfetto export of
# testdata with slices (and that of a merged two-process log) and the
# speedscope export of the profiled run, loaded into the speedscope app
# (npm package) in headless Chromium (Debian package); speedscope.mjs
# asserts that each loaded, without an import or page error, showing the
# names it must (frames, thread labels, tracks).
#
#   run.sh EVTOOL TESTDATA WORK
#
# The npm packages (speedscope, playwright-core, pinned below) are
# installed into WORK/node_modules on first use, or taken from
# $EVTOOL_VIEWER_MODULES. Exit 77 (skipped) when Chromium, node or the
# packages cannot be had. Screenshots of the loads are left in WORK/shots.
set -euo pipefail
evtool=$1 data=$2 work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../browser.sh
. "$here/../../browser.sh"
browser_setup "$work" speedscope@1.25.0

out=$work/shots
rm -rf "$out"; mkdir -p "$out"
"$evtool" merge "$data/merge-a.eventlog" "$data/merge-b.eventlog" -o "$out/merged.eventlog"
"$evtool" export "$out/merged.eventlog" -o "$out/merged.json"
"$evtool" export --format speedscope "$data/prof-n2.eventlog" -o "$out/prof-n2.speedscope.json"
# Specific names: frames of the profiled run, labels of threads, tracks.
args=("$out/prof-n2.speedscope.json" Main.main "cap 0" "(1/2)"
      -- "$out/merged.json" "worker (pid" a-1 "(1/3)")
for log in "$data"/*.eventlog "$data"/*.eventlog.gz; do
  name=$(basename "$log")
  "$evtool" export "$log" -o "$out/$name.json" 2>/dev/null || [[ $? == 3 ]]
  grep -q '"ph":"X"' "$out/$name.json" || continue   # nothing to show
  args+=(-- "$out/$name.json" "cap 0")
done
args+=(-- "$out/threads-n2.eventlog.json" stage-0 sink)
node "$here/speedscope.mjs" "$modules" "$chromium" "$out" "${args[@]}"
