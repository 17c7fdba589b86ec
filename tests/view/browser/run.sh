#!/usr/bin/env bash
# evtool view's page in real headless Chromium (Debian's chromium, driven
# by the pinned playwright-core that tests/export/viewer uses): view.mjs
# opens a merged two-process log, checks the canvas's pixels against
# stats --caps (and the spark strips against /api/tiles), zooms by URL and by wheel to one RUN_THREAD event, hovers
# it and compares the tooltip with show's line, and selects a range whose
# figures it compares with filter --from --to | stats --json; rows.mjs
# checks the GC phases, thread rows (and one run of a thread zoomed in,
# exact to the pixel, hovered), span bars and process headers; with ghc,
# a FIFO fed by a running program grows on the page.
#
#   run.sh EVTOOL TESTDATA WORK
#
# playwright-core is installed into WORK/node_modules on first use, or
# taken from $EVTOOL_VIEWER_MODULES. Exit 77 (skipped) without Chromium,
# node or the package. Screenshots are left in WORK/shots.
set -euo pipefail
evtool=$1 data=$2 work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../browser.sh
. "$here/../../browser.sh"
browser_setup "$work"
out=$work/shots
rm -rf "$out"; mkdir -p "$out"
# The live test's GHC program (view.mjs 7.), when ghc is there.
if command -v ghc >/dev/null && mkdir -p "$work/ticker" &&
   ghc -O1 -threaded -rtsopts -eventlog -v0 -outputdir "$work/ticker" \
     -o "$work/ticker/ticker" "$here/../ticker.hs"; then
  export EVTOOL_TICKER=$work/ticker/ticker
fi
"$evtool" merge "$data/merge-a.eventlog" "$data/merge-b.eventlog" -o "$out/merged.eventlog"
node "$here/view.mjs" "$modules" "$chromium" "$evtool" "$out/merged.eventlog" "$out" \
  "$data/spans-a.eventlog" \
  "$data/gc-n2.eventlog" "$data/threads-n4.eventlog" "$data/sparks-n2.eventlog" "$data/threads-n2.eventlog"
