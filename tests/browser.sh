# Sourced by the browser tests (tests/export/viewer/run.sh,
# tests/view/browser/run.sh): Debian's Chromium driven by playwright-core,
# pinned here once for the project, installed from npm into the test's
# work folder on first use.
#
#   browser_setup WORK [PACKAGE@VERSION...]
#
# sets $chromium and $modules (a node_modules holding playwright-core and
# the packages named), or exits 77 (skipped) saying what is missing.
# EVTOOL_VIEWER_MODULES names a node_modules already holding them.
PLAYWRIGHT_CORE=playwright-core@1.65.1

browser_skip() { echo "0 passed, 0 failed, 1 skipped: $*"; exit 77; }

browser_setup() { # work, packages...
  local work=$1 p missing=0
  shift
  local packages=("$PLAYWRIGHT_CORE" "$@")
  chromium=$(command -v chromium || command -v chromium-browser || true)
  [[ -n "$chromium" ]] || browser_skip "no chromium (apt-get install chromium)"
  command -v node >/dev/null || browser_skip "no node (apt-get install nodejs npm)"
  modules=${EVTOOL_VIEWER_MODULES:-$work/node_modules}
  for p in "${packages[@]}"; do
    [[ -d "$modules/${p%@*}" ]] || missing=1
  done
  if [[ $missing == 1 ]]; then
    command -v npm >/dev/null || browser_skip "no npm (apt-get install npm)"
    mkdir -p "$work"
    timeout 300 npm install --prefix "$work" --no-audit --no-fund --silent \
      "${packages[@]}" >"$work/npm.log" 2>&1 ||
      { cat "$work/npm.log"; browser_skip "npm install failed"; }
    modules=$work/node_modules
  fi
}
