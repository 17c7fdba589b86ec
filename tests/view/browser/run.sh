#!/usr/bin/env bash
# evtool view's page in real headless Chromium (Debian's chromium, driven
# by the pinned playwright-core that tests/export/viewer uses): view.mjs
# opens a merged two-process log, checks the canvas's pixels against
# stats --caps, zooms by URL and by wheel to one RUN_THREAD event, hovers
# it and compares the tooltip with show's line, and selects a range whose
# figures it compares with filter --from --to | stats --json.
#
#   run.sh EVTOOL TESTDATA WORK
#
# playwright-core is installed into WORK/node_modules on first use, or
# taken from $EVTOOL_VIEWER_MODULES. Exit 77 (skipped) without Chromium,
# node or the package. Screenshots are left in WORK/shots.
set -euo pipefail
evtool=$1 data=$2 work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
packages=(playwright-core@1.65.1)

skip() { echo "0 passed, 0 failed, 1 skipped: $*"; exit 77; }
chromium=$(command -v chromium || command -v chromium-browser || true)
[[ -n "$chromium" ]] || skip "no chromium (apt-get install chromium)"
command -v node >/dev/null || skip "no node (apt-get install nodejs npm)"
modules=${EVTOOL_VIEWER_MODULES:-$work/node_modules}
if [[ ! -d "$modules/playwright-core" ]]; then
  command -v npm >/dev/null || skip "no npm (apt-get install npm)"
  mkdir -p "$work"
  timeout 300 npm install --prefix "$work" --no-audit --no-fund --silent \
    "${packages[@]}" >"$work/npm.log" 2>&1 || { cat "$work/npm.log"; skip "npm install failed"; }
  modules=$work/node_modules
fi
out=$work/shots
rm -rf "$out"; mkdir -p "$out"
"$evtool" merge "$data/merge-a.eventlog" "$data/merge-b.eventlog" -o "$out/merged.eventlog"
node "$here/view.mjs" "$modules" "$chromium" "$evtool" "$out/merged.eventlog" "$out" \
  "$data/gc-n2.eventlog" "$data/threads-n4.eventlog" "$data/sparks-n2.eventlog"
