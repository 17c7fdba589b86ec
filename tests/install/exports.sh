#!/usr/bin/env bash
# libevtool.so exports exactly the public API: every defined dynamic
# symbol is an ev_ name declared in include/evtool/*.h, and every function
# declared there (with EV_API) is exported. Internal functions (evi_*,
# evv_*) are hidden by -fvisibility=hidden (lib/CMakeLists.txt).
# usage: exports.sh NM PYTHON3 LIBEVTOOL_SO SOURCE_DIR
set -euo pipefail
nm=$1 python=$2 so=$3 src=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$nm" -D --defined-only "$so" | awk 'NF == 3 { print $3 }' | sed 's/@.*//' |
    sort -u >"$work/exported"
"$python" "$src/tests/doc_comments.py" --functions "$src"/include/evtool/*.h |
    sort -u >"$work/declared"

fail=0
if [ ! -s "$work/exported" ]; then
    echo "FAIL: $so exports nothing"; exit 1
fi
if grep -v '^ev_' "$work/exported" >"$work/foreign"; then
    echo "FAIL: $so exports $(wc -l <"$work/foreign") symbols outside the API:"
    head -n 20 "$work/foreign"
    fail=1
fi
comm -13 "$work/exported" "$work/declared" >"$work/hidden"
if [ -s "$work/hidden" ]; then
    echo "FAIL: declared in include/evtool but not exported (EV_API missing?):"
    cat "$work/hidden"
    fail=1
fi
comm -23 "$work/exported" "$work/declared" | grep '^ev_' >"$work/undeclared" || true
if [ -s "$work/undeclared" ]; then
    echo "FAIL: exported but declared in no public header:"
    cat "$work/undeclared"
    fail=1
fi
[ "$fail" -eq 0 ] && echo "ok: $(wc -l <"$work/exported") ev_ symbols exported, all declared, nothing else"
exit "$fail"
