#!/usr/bin/env bash
# The README's way in: `.ci/setup` (here without installing packages, into
# a folder of its own), then `cmake --install` of what it built into a
# temporary prefix. The install must succeed and hold the program, both
# libraries, the headers and pkg-config's file, and the installed evtool
# must count the events of a real log as the build's does.
# usage: setup.sh SOURCE_DIR EVTOOL LOG
set -euo pipefail
src=$1 evtool=$2 log=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bash "$src/.ci/setup" --no-deps "$work/build" >"$work/setup.out" ||
    { cat "$work/setup.out"; echo "FAIL: .ci/setup"; exit 1; }
cmake --install "$work/build" --prefix "$work/prefix" >"$work/install.out" 2>&1 ||
    { tail -n 20 "$work/install.out"; echo "FAIL: cmake --install after .ci/setup"; exit 1; }

fail=0
for f in bin/evtool include/evtool/evtool.h; do
    [ -e "$work/prefix/$f" ] || { echo "FAIL: $f not installed"; fail=1; }
done
for f in libevtool.so libevtool.a evtool.pc; do
    [ -n "$(find "$work/prefix" -name "$f")" ] ||
        { echo "FAIL: $f not installed"; fail=1; }
done
count() { "$1" info --json "$log" | sed -n 's/^ *"events": \([0-9]*\),$/\1/p' | sed -n 1p; }
want=$(count "$evtool")
got=$(LD_LIBRARY_PATH=$(dirname "$(find "$work/prefix" -name libevtool.so)") \
      count "$work/prefix/bin/evtool")
if [ -z "$want" ] || [ "$got" != "$want" ]; then
    echo "FAIL: the installed evtool counts '$got' events, the build's '$want'"; fail=1
fi
[ "$fail" = 0 ] && echo "ok: .ci/setup, then cmake --install: $got events"
exit "$fail"
