#!/usr/bin/env bash
# Runs one libFuzzer target of an EVTOOL_FUZZ=ON build.
#
#     bash fuzz/run.sh BUILD_DIR TARGET SECONDS [SCRATCH_DIR]
#
# New corpus inputs and crash/timeout/leak artifacts go to
# SCRATCH_DIR/TARGET (default /tmp/evtool-fuzz), never into the source
# tree; the committed seeds and regressions are read, not written. Fork
# mode with ignored crashes keeps the run going after a finding, so one
# bug does not end a long run; every artifact is in SCRATCH_DIR/TARGET.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$1 target=$2 seconds=$3
scratch=${4:-/tmp/evtool-fuzz}/$target
mkdir -p "$scratch/corpus" "$scratch/artifacts"
dirs=("$scratch/corpus" "$here/corpus/$target")
[ -d "$here/regressions/$target" ] && dirs+=("$here/regressions/$target")
exec "$build/fuzz/fuzz_$target" \
	-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
	-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
	-dict="$here/eventlog.dict" \
	-artifact_prefix="$scratch/artifacts/" \
	"${dirs[@]}"
