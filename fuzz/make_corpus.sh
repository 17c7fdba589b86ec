#!/usr/bin/env bash
# Builds the seed corpus of each fuzz target (fuzz/corpus/<target>/) from
# the real logs in testdata/: small logs whole, large ones cut to a few KiB
# (both cleanly with `evtool truncate --bytes` and raw mid-event, or a time
# window around what matters, such as a census holding ticks), re-blocked
# into small blocks so that resync has markers to find, damaged in the
# middle, gzip-compressed, and concatenated into two sessions. Merge seeds
# pair two logs, filter seeds prefix control bytes (see fuzz_merge.c and
# fuzz_filter.c for the layouts). The seeds are kept small: libFuzzer
# mutates small inputs faster.
#
#     bash fuzz/make_corpus.sh [EVTOOL] [OUTDIR]
#
# EVTOOL defaults to build/evtool, OUTDIR to fuzz/corpus. The result is
# committed; rerun after changing testdata/. Inputs the fuzzer found are
# added by hand under corpus/<target>/found-* and kept by this script.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
evtool=${1:-$root/build/evtool}
out=${2:-$here/corpus}
td=$root/testdata
cut=6000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$evtool" ] || { echo "make_corpus.sh: no evtool at $evtool" >&2; exit 2; }

logs=$tmp/logs
mkdir -p "$logs"

# Small real logs, whole.
for n in user-n1 merge-a merge-b merge-c sparks-n2 killed-sigkill; do
	cp "$td/$n.eventlog" "$logs/$n"
done
# Large ones: a clean prefix, and a raw cut that ends mid-event.
for n in threads-n1 threads-n2 threads-n4 heap-n1 gc-n2 nonmoving-n2; do
	"$evtool" truncate -q --bytes $cut "$td/$n.eventlog" -o "$logs/$n-prefix" || [ $? -eq 3 ]
done
head -c 5001 "$td/threads-n4.eventlog" >"$logs/threads-n4-cut"
head -c 4099 "$td/gc-n2.eventlog" >"$logs/gc-n2-cut"
# The killed log with whole blocks and no data end (stored as gzip).
{ gzip -dc "$td/killed-blocks.eventlog.gz" || true; } | head -c $cut >"$logs/killed-blocks-cut"
# Small blocks: many markers in a few KiB (resync and re-blocking).
"$evtool" cat --reblock --block-size 400 "$logs/gc-n2-prefix" -o "$logs/gc-n2-blocks400"
"$evtool" cat --reblock --block-size 300 "$logs/threads-n4-prefix" -o "$logs/threads-n4-blocks300"
# Damage in the middle of a small-block log: 64 bytes overwritten, and
# 37 junk bytes inserted.
cp "$logs/gc-n2-blocks400" "$logs/gc-n2-damaged"
printf '\125%.0s' $(seq 64) | dd of="$logs/gc-n2-damaged" bs=1 seek=3100 conv=notrunc status=none
{ head -c 3500 "$logs/threads-n4-blocks300"; printf 'junk%.0s' $(seq 9); printf 'x';
  tail -c +3501 "$logs/threads-n4-blocks300"; } >"$logs/threads-n4-inserted"
# Two sessions in one stream (a restarted eventlog).
cat "$logs/user-n1" "$logs/merge-a" >"$logs/two-sessions"
# Two runs' logs concatenated (merge refuses it, see fuzz_merge_self.c).
cat "$logs/merge-a" "$logs/merge-b" >"$logs/two-runs"
# A -hc -p census holding time-profile ticks (prof-a's at 48.4 ms, with
# the events around it) and a window of the other replica; the log with
# the header Mercury's runtime writes (tests/cli/cases/redeclare.py).
"$evtool" filter --no-progress --from 47ms --to 55ms "$td/prof-a.eventlog" -o "$logs/prof-a-census"
"$evtool" filter --no-progress --from 47ms --to 55ms "$td/prof-b.eventlog" -o "$logs/prof-b-window"
python3 "$root/tests/cli/cases/redeclare.py" --mercury "$logs/user-n1" "$logs/mercury-user-n1"
python3 "$root/tests/cli/cases/redeclare.py" --mercury "$logs/prof-a-census" "$logs/mercury-prof-a-census"
# gzip input.
gzip -9 -n -c "$logs/user-n1" >"$logs/user-n1.gz"
gzip -9 -n -c "$logs/threads-n4-cut" >"$logs/threads-n4-cut.gz"
# Profiles, for export: the profiled run's cost centres with its time
# samples, and with its -hc heap samples; the -hT run's heap samples.
"$evtool" filter --type 161,167,168 "$td/prof-n2.eventlog" -o "$tmp/prof-p"
"$evtool" filter --type 160-165 "$td/prof-n2.eventlog" -o "$tmp/prof-hc"
"$evtool" filter --type 160-165 "$td/hpt-n1.eventlog" -o "$tmp/hpt"
profiles=$tmp/profiles
mkdir -p "$profiles"
for n in prof-p prof-hc hpt; do
	"$evtool" truncate -q --bytes 14000 "$tmp/$n" -o "$profiles/$n" || [ $? -eq 3 ]
done

for t in reader validate truncate merge merge_self filter export; do
	mkdir -p "$out/$t"
	find "$out/$t" -maxdepth 1 -type f ! -name 'found-*' -delete
done
for f in "$logs"/*; do
	n=$(basename "$f")
	cp "$f" "$out/reader/$n"
	cp "$f" "$out/validate/$n"
	cp "$f" "$out/truncate/$n"
	cp "$f" "$out/export/$n"
	cp "$f" "$out/merge_self/$n"
done
cp "$profiles"/* "$out/export/"

# merge: OPTS(1) LEN_A(4, big-endian) A B
merge_seed() { # name opts a b
	local len
	len=$(stat -c %s "$3")
	{ printf "\\x$(printf %02x "$2")";
	  printf "\\x$(printf %02x $((len >> 24 & 255)))\\x$(printf %02x $((len >> 16 & 255)))";
	  printf "\\x$(printf %02x $((len >> 8 & 255)))\\x$(printf %02x $((len & 255)))";
	  cat "$3" "$4"; } >"$out/merge/$1"
}
merge_seed a-b-wallclock 0 "$logs/merge-a" "$logs/merge-b"
merge_seed b-c-start 1 "$logs/merge-b" "$logs/merge-c"
merge_seed a-c-none-widen 10 "$logs/merge-a" "$logs/merge-c"
merge_seed user-threads-norenumber 5 "$logs/user-n1" "$logs/threads-n2-prefix"
merge_seed sparks-cut-shift 49 "$logs/sparks-n2" "$logs/threads-n4-cut"
merge_seed gc-killed 1 "$logs/gc-n2-blocks400" "$logs/killed-sigkill"
merge_seed gz-two-sessions 0 "$logs/user-n1.gz" "$logs/two-sessions"
merge_seed prof-census-self 112 "$logs/prof-a-census" "$logs/prof-a-census"
merge_seed prof-census-other 0 "$logs/prof-a-census" "$logs/prof-b-window"
merge_seed mercury-self 0 "$logs/mercury-prof-a-census" "$logs/mercury-prof-a-census"
merge_seed mercury-ghc 0 "$logs/mercury-user-n1" "$logs/user-n1"

# filter: SEL EXCL CLASS/TYPE TYPE CAP THREAD TIME MARKERS, then the log
filter_seed() { # name 8-bytes-as-hex log
	local hex=$2 bytes=""
	for ((i = 0; i < 16; i += 2)); do bytes+="\\x${hex:i:2}"; done
	{ printf "$bytes"; cat "$3"; } >"$out/filter/$1"
}
filter_seed all-user      0000000000000000 "$logs/user-n1"
filter_seed class-g       0100010000000000 "$logs/gc-n2-prefix"
filter_seed type-excl     0202011300000000 "$logs/threads-n4-cut"
filter_seed cap-global    0400000081000000 "$logs/threads-n4-blocks300"
filter_seed thread        0800000000120000 "$logs/threads-n2-prefix"
filter_seed time          1000000000002100 "$logs/sparks-n2"
filter_seed markers       2000000000000010 "$logs/user-n1"
filter_seed redact-capset 40c000000000000c "$logs/merge-a"
filter_seed meta-off      8100040000000000 "$logs/heap-n1-prefix"
filter_seed two-sessions  3f00020912340621 "$logs/two-sessions"
filter_seed gz            0900000000330000 "$logs/user-n1.gz"

du -sh "$out"
