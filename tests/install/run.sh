#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds a small program
# against it with pkg-config and with CMake's find_package; each must
# count the same events in a real log as `evtool info` does.
# usage: run.sh BUILD_DIR SOURCE_DIR LOG
set -euo pipefail
build=$1 src=$2 log=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
libdir=$(dirname "$(find "$work/prefix" -name evtool.pc)")
export PKG_CONFIG_PATH=$libdir
export LD_LIBRARY_PATH=$(dirname "$libdir")

want=$("$work/prefix/bin/evtool" info --json "$log" |
       sed -n 's/^ *"events": \([0-9]*\),$/\1/p' | sed -n 1p)
[ -n "$want" ] || { echo "FAIL: no event count from evtool info"; exit 1; }

pass=0 fail=0
check() { # name, program
    local got
    if got=$("$2" "$log") && [ "${got%% *}" = "$want" ]; then
        echo "ok $1: $got"; pass=$((pass + 1))
    else
        echo "FAIL $1: got '$got', want $want events"; fail=$((fail + 1))
    fi
}

cc $(pkg-config --cflags evtool) -o "$work/pc_shared" \
   "$src/tests/install/consumer.c" $(pkg-config --libs evtool)
check pkg-config-shared "$work/pc_shared"
cc $(pkg-config --cflags evtool) -o "$work/pc_static" \
   "$src/tests/install/consumer.c" \
   "$libdir/../libevtool.a" \
   $(pkg-config --libs --static $(pkg-config --print-requires-private evtool | cut -d' ' -f1))
check pkg-config-static "$work/pc_static"

cmake -S "$src/tests/install" -B "$work/consumer" \
      -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
check find_package-shared "$work/consumer/consumer_shared"
check find_package-static "$work/consumer/consumer_static"

# find_package(evtool) keeps to its own names (ZLIB_* and PkgConfig::ZLIB
# stay the consumer's), and when a dependency is missing (pkg-config
# pointed at an empty folder) it is "not found": QUIET configures on
# without it, REQUIRED fails naming what is missing.
quiet() { # name, expected line, extra cmake arguments...
    local name=$1 want=$2 out
    shift 2
    rm -rf "$work/quiet"
    out=$(cmake -S "$src/tests/install/quiet" -B "$work/quiet" \
                -DCMAKE_PREFIX_PATH="$work/prefix" "$@" 2>&1) || true
    if grep -q -- "$want" <<<"$out"; then
        echo "ok $name"; pass=$((pass + 1))
    else
        echo "FAIL $name: no '$want' in:"; sed 's/^/  /' <<<"$out" | tail -n 15
        fail=$((fail + 1))
    fi
}
mkdir "$work/no-pc"
quiet find_package-keeps-names "evtool: found"
PKG_CONFIG_LIBDIR=$work/no-pc PKG_CONFIG_PATH= \
    quiet find_package-quiet-not-found "evtool: not found"
PKG_CONFIG_LIBDIR=$work/no-pc PKG_CONFIG_PATH= \
    quiet find_package-required-fails "evtool needs zlib, libxxhash and libdeflate" \
          -DEVTOOL_REQUIRED=ON

# The example of doc/library.md: built against the installed library,
# run on the log, its output a valid log of GC events; and the copy in
# doc/library.md is the file.
result() { # name, status
    if [ "$2" -eq 0 ]; then echo "ok $1"; pass=$((pass + 1));
    else echo "FAIL $1"; fail=$((fail + 1)); fi
}
cc -std=c99 -pedantic -Wall -Wextra -Werror $(pkg-config --cflags evtool) \
   -o "$work/filter_gc" "$src/doc/examples/filter_gc.c" $(pkg-config --libs evtool)
# (info's whole output is read first: grep -q stops reading at the match,
# and evtool, killed by SIGPIPE as cat is, would fail the pipeline.)
"$work/filter_gc" "$log" "$work/gc.eventlog" >/dev/null &&
    "$work/prefix/bin/evtool" validate -q "$work/gc.eventlog" &&
    info=$("$work/prefix/bin/evtool" info --json "$work/gc.eventlog") &&
    grep -q '"gc": [1-9]' <<<"$info"
result example-filter_gc $?
sed -n '/^<!-- doc\/examples\/filter_gc.c: begin/,/^<!-- doc\/examples\/filter_gc.c: end/p' \
    "$src/doc/library.md" | sed '1,2d;$d' | sed '$d' >"$work/from-doc.c"
diff -u "$src/doc/examples/filter_gc.c" "$work/from-doc.c"
result library.md-has-the-example $?

# The consumer example of doc/library.md: built against the installed
# library, it counts GC_START from a live log (a FIFO that the log reaches
# in two parts, 0.3 s apart), as many as evtool info counts; and the copy
# in doc/library.md is the file.
cc -std=c99 -pedantic -Wall -Wextra -Werror $(pkg-config --cflags evtool) \
   -o "$work/gc_count" "$src/doc/examples/gc_count.c" $(pkg-config --libs evtool)
gclog=$(dirname "$log")/gc-n2.eventlog
gcs=$("$work/prefix/bin/evtool" info --json "$gclog" |
      sed -n '/"name": "GC_START"/{n;s/^ *"count": \([0-9]*\)$/\1/p;}')
mkfifo "$work/live"
{ head -c 4000 "$gclog"; sleep 0.3; tail -c +4001 "$gclog"; } >"$work/live" &
counted=$("$work/gc_count" <"$work/live" | tail -n 1)
wait
[ -n "$gcs" ] && [ "$gcs" -gt 1 ] && [ "$counted" = "$gcs GC_START" ]
result "example-gc_count ($counted, info: $gcs)" $?
sed -n '/^<!-- doc\/examples\/gc_count.c: begin/,/^<!-- doc\/examples\/gc_count.c: end/p' \
    "$src/doc/library.md" | sed '1,2d;$d' | sed '$d' >"$work/gc-from-doc.c"
diff -u "$src/doc/examples/gc_count.c" "$work/gc-from-doc.c"
result library.md-has-the-consumer-example $?

# The shell completions and the man page, where their shells look.
for f in share/bash-completion/completions/evtool \
         share/zsh/site-functions/_evtool \
         share/fish/vendor_completions.d/evtool.fish \
         share/man/man1/evtool.1; do
    [ -s "$work/prefix/$f" ]
    result "installed $f" $?
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
