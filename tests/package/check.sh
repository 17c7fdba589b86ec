#!/usr/bin/env bash
# The Debian packages of cmake/package.cmake, as a user gets them: built
# with `cpack -G DEB` from a build installed to /usr, installed with
# `dpkg -i` (then `apt-get -f install`, which fetches what they depend
# on), checked, and removed, leaving nothing of evtool in /usr:
#   - `evtool --version` names the version and the commit built from;
#   - `man evtool` shows the man page;
#   - bash, through bash-completion's loader, completes `evtool me<TAB>`;
#   - `pkg-config --cflags --libs evtool` works, and the example program
#     of doc/library.md builds with it against the installed library,
#     runs with the installed libevtool.so.0, and writes a valid log.
# Needs root (dpkg); without it, says so and exits 0. .ci/test runs it.
# usage: tests/package/check.sh [BUILD_DIR]   (default: build-package)
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build-package}
packages=(evtool libevtool0 libevtool-dev)

if [ "$(id -u)" -ne 0 ]; then
    echo "package: skipped (installing a package needs root)"
    exit 0
fi
for p in "${packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'installed'; then
        echo "package: $p is already installed; remove it first (dpkg -r $p)" >&2
        exit 1
    fi
done

echo "package: building $build (Release, prefix /usr) and its .deb files"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
    -DEVTOOL_TESTS=OFF >/dev/null &&
    cmake --build "$build" -j"$(nproc)" >/dev/null &&
    rm -f "$build"/*.deb &&
    (cd "$build" && cpack -G DEB >/dev/null 2>&1) || {
    echo "package: the build or cpack failed" >&2
    exit 1
}
debs=("$build"/*.deb)
[ ${#debs[@]} -eq ${#packages[@]} ] || {
    echo "package: cpack made ${#debs[@]} packages, not ${#packages[@]}: ${debs[*]}" >&2
    exit 1
}

work=$(mktemp -d)
before=$work/usr-before
find /usr -path '*evtool*' | sort >"$before"
removed=0
remove() {
    [ "$removed" = 1 ] && return
    removed=1
    dpkg --purge "${packages[@]}" >/dev/null
}
trap 'remove; rm -rf "$work"' EXIT
pass=0 fail=0
result() { # name, status
    if [ "$2" -eq 0 ]; then
        pass=$((pass + 1))
    else
        echo "FAIL: package: $1"
        fail=$((fail + 1))
    fi
}

echo "package: installing ${debs[*]##*/}"
# dpkg -i leaves missing dependencies unconfigured; apt-get -f install
# fetches them (and does nothing when there are none).
dpkg -i "${debs[@]}" >"$work/dpkg.log" 2>&1
DEBIAN_FRONTEND=noninteractive apt-get -f install -y -qq >>"$work/dpkg.log" 2>&1
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'
    result "$p installed" $?
done
[ "$fail" -eq 0 ] || { cat "$work/dpkg.log"; exit 1; }

# The installed program, not one in the build folder.
[ "$(command -v evtool)" = /usr/bin/evtool ]
result "evtool is /usr/bin/evtool" $?

version=$(evtool --version)
want="evtool $(sed -n 's/^#define EV_VERSION_STRING "\([^"]*\)".*/\1/p' "$src/include/evtool/common.h")"
if git -C "$src" rev-parse HEAD >/dev/null 2>&1; then
    commit=$(git -C "$src" rev-parse --short=12 HEAD)
    git -C "$src" diff-index --quiet HEAD -- || commit+=-dirty
    want+=" (commit $commit)"
    [ "$version" = "$want" ]
else
    [[ $version == "$want (commit "*")" ]]
fi
result "evtool --version: '$version', expected '$want'" $?

manpath=$(man -w evtool 2>&1)
MANPAGER=cat MANWIDTH=80 man evtool >"$work/man.txt" 2>&1
[[ $manpath == /usr/share/man/man1/evtool.1* ]] && grep -q 'evtool merge' "$work/man.txt"
status=$? # (a command substitution in result's arguments would reset $?)
result "man evtool ($manpath: $(head -n 2 "$work/man.txt" | tr '\n' ' ')$(
    grep -ls 'path-exclude.*/usr/share/man' /etc/dpkg/dpkg.cfg.d/* |
    sed 's/^/; dpkg installs no man pages here: /'))" $status

completed=$(bash --norc --noprofile -c '
    source /usr/share/bash-completion/bash_completion
    _completion_loader evtool
    func=$(complete -p evtool | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
    COMP_WORDS=(evtool me); COMP_CWORD=1; COMP_LINE="evtool me"; COMP_POINT=9
    "$func" evtool me evtool
    printf "%s\n" "${COMPREPLY[@]}"')
[ "$completed" = merge ]
result "bash completes 'evtool me' to '$completed', expected 'merge'" $?

flags=$(pkg-config --cflags --libs evtool)
[[ " $flags " == *" -levtool "* ]]
result "pkg-config --cflags --libs evtool: '$flags'" $?

cc -Wall -Wextra -Werror -o "$work/filter_gc" "$src/doc/examples/filter_gc.c" $flags
result "doc/examples/filter_gc.c builds against the installed library" $?
# grep reads ldd's whole output: with -q in a pipe it may stop early, and
# ldd's SIGPIPE would fail the pipe (pipefail).
grep -Eq 'libevtool\.so\.0 => (/usr)?/lib/' <<<"$(ldd "$work/filter_gc")"
result "filter_gc runs with the installed libevtool.so.0" $?
"$work/filter_gc" "$src/testdata/gc-n2.eventlog" "$work/gc.eventlog" >/dev/null &&
    evtool validate "$work/gc.eventlog" >/dev/null
result "filter_gc writes a log that evtool validate passes" $?

echo "package: removing ${packages[*]}"
remove
for p in "${packages[@]}"; do
    ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'installed'
    result "$p removed" $?
done
find /usr -path '*evtool*' | sort | diff "$before" - >"$work/left"
status=$?
result "nothing of evtool left in /usr: $(tr '\n' ' ' <"$work/left")" $status

echo "package: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
