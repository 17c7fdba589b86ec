#!/usr/bin/env bash
# The commands that read in parallel say, byte for byte and with the same
# exit code, what they say with --threads 1 (the sequential path): on
# every testdata and corpus log, on every file of the fuzz corpus (damaged
# logs), and on damaged copies of real logs made here: bytes changed in
# the middle of the log (inside a block: times, types, sizes, payloads), a
# block marker's size changed, an undeclared type in the second block, a
# cut copy; for validate, copies whose blocks stay readable but
# whose threads, finishes and times are wrong (validate -T N says what it
# says in one pass whenever the workers see anything to report); and
# copies of real logs re-blocked into blocks of 1 KiB, so that runs,
# collections and spans cross many blocks' starts. export runs in every
# format: speedscope and hp pick their events in parallel (perfetto is
# sequential at every -T, and compared so that it stays so).
#
#   bash tests/parallel/run.sh EVTOOL TESTDATA [CORPUS] [FUZZ_CORPUS]
set -euo pipefail
evtool=$1 testdata=$2 corpus=${3:-} fuzz=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The commands, each with the options after which -T N is given; what
# they write to standard output is compared by its digest (filter writes
# a log), what they write to standard error as text.
commands=(
	"info"
	"info --json"
	"filter --class gc -o -"
	"filter --class scheduler --exclude-cap 1 -o -"
	"filter --type RUN_THREAD,GC_END -o -"
	"cat -o -"
	"validate --no-progress"
	"validate --no-progress --json"
	"validate --no-progress --no-semantics"
	"validate --no-progress --strict --tolerance 2us --gc-end-tolerance 20us"
	"validate --no-progress --max-errors 1"
	"validate --no-progress --sorted"
	"stats --threads --caps --spans=all"
	"stats --json --threads --caps --spans=all"
	"stats --fail-if gc-time>1ms"
	"export --format perfetto -o -"
	"export --format speedscope -o -"
	"export --format hp -o -"
)

logs=("$testdata"/*.eventlog "$testdata"/*.eventlog.gz)
[ -n "$corpus" ] && [ -d "$corpus" ] && logs+=("$corpus"/*.eventlog)
[ -n "$fuzz" ] && [ -d "$fuzz" ] && while IFS= read -r f; do logs+=("$f"); done \
	< <(find "$fuzz" -type f | sort)

# damage SRC OFFSET HEXBYTE NAME: a copy of SRC with one byte replaced.
damage() {
	cp "$1" "$work/$4"
	printf "\\x$3" | dd of="$work/$4" bs=1 seek="$2" conv=notrunc status=none
	logs+=("$work/$4")
}
for src in "$testdata"/threads-n2.eventlog "$testdata"/gc-n2.eventlog; do
	name=$(basename "$src" .eventlog)
	size=$(stat -c %s "$src")
	# Offsets in the middle of the log land inside a block; each byte of
	# an event head (type, time, size) at some of them.
	for frac in 3 5 7; do
		at=$((size * frac / 10))
		for k in 0 1 2 5 9 11; do
			damage "$src" $((at + k)) ff "$name-$frac-$k-ff.eventlog"
			damage "$src" $((at + k)) 00 "$name-$frac-$k-00.eventlog"
		done
	done
	head -c $((size * 2 / 3)) "$src" > "$work/$name-cut.eventlog"
	logs+=("$work/$name-cut.eventlog")
	# The first block marker's size (u32 at +10 of the marker after the
	# header's "datb"), its low byte changed: the markers no longer
	# tile the log.
	first=$(($(grep -obUa datb "$src" | head -n 1 | cut -d: -f1) + 4))
	damage "$src" $((first + 13)) 01 "$name-marker-size.eventlog"
	# The type of the second block's first event (24 bytes after its
	# marker), 0xff.. (undeclared): the workers refuse the block and the
	# sequential reader reads on from it, to the same failure.
	size=$(od -An -tu1 -j $((first + 10)) -N4 "$src" |
		awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
	damage "$src" $((first + size + 24)) ff "$name-undeclared.eventlog"
done

# Damage that leaves the blocks readable but breaks what validate checks
# (compared for validate only, in semantic_logs)
# across blocks and caps: a RUN_THREAD's or STOP_THREAD's thread id (the
# low byte of its u32 at +10) set to another thread's, a STOP_THREAD's
# status (u16 at +14) set to ThreadFinished (5), an event's time (its
# high-order bytes at +2) moved far back or forward; in logs of 2 and 4
# caps, in their first, middle and last blocks.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
semantic_logs=()
semantic() {
	damage "$1" "$2" "$3" "$4.eventlog"
	unset 'logs[-1]'
	semantic_logs+=("$work/$4.eventlog")
}
for src in "$testdata"/threads-n2.eventlog "$testdata"/threads-n4.eventlog \
	   "$testdata"/gc-n2.eventlog; do
	name=$(basename "$src" .eventlog)
	i=0
	for at in $(python3 "$here/sched_offsets.py" "$src" 12 1 2); do
		i=$((i + 1))
		semantic "$src" $((at + 13)) 0$((i % 9 + 1)) "$name-tid-$i"
		semantic "$src" $((at + 15)) 05 "$name-status-$i"
		semantic "$src" $((at + 6)) 00 "$name-time-back-$i"
		semantic "$src" $((at + 5)) 7f "$name-time-on-$i"
	done
done

# Real logs in many small blocks (cat --reblock: the same events).
for src in threads-n2 threads-n4 gc-n2 spans-a heap-a prof-n2; do
	"$evtool" cat --reblock --block-size 1K "$testdata/$src.eventlog" \
		-o "$work/$src-1k.eventlog"
	logs+=("$work/$src-1k.eventlog")
done

# Slices of heap-profiled runs (filter --from): export --format hp starts
# the profile at a slice's first event that is not metadata, which the
# workers pick with each block's earliest and latest events.
for src in heap-a hpt-n1 prof-n2; do
	"$evtool" filter --from +20ms "$testdata/$src.eventlog" \
		-o "$work/$src-slice.eventlog"
	logs+=("$work/$src-slice.eventlog")
done

# run "CMD" T LOG: the digest of CMD's standard output, its standard
# error and its exit code
run() {
	local rc=0
	# shellcheck disable=SC2086
	"$evtool" $1 -T "$2" "$3" > "$work/out" 2> "$work/err" || rc=$?
	sha256sum < "$work/out"
	cat "$work/err"
	echo "exit $rc"
}

compared=0 bad=0
# compare LOG CMD...: each CMD with -T 2 and -T 3 against -T 1 on LOG
compare() {
	local log=$1 cmd want got t
	shift
	for cmd in "$@"; do
		want=$(run "$cmd" 1 "$log")
		# A usage error (exit 2): the command does not take -T.
		if [[ $want == *"exit 2" ]]; then
			echo "FAIL: $cmd -T 1 $log: a usage error"
			bad=$((bad + 1))
		fi
		for t in 2 3; do
			got=$(run "$cmd" "$t" "$log")
			compared=$((compared + 1))
			if [ "$want" != "$got" ]; then
				echo "FAIL: $cmd -T $t $log differs from -T 1:"
				diff <(echo "$want") <(echo "$got") | head -10
				bad=$((bad + 1))
			fi
		done
	done
}
validate_commands=()
for cmd in "${commands[@]}"; do
	[[ $cmd == validate* ]] && validate_commands+=("$cmd")
done
for log in "${logs[@]}"; do
	compare "$log" "${commands[@]}"
done
for log in "${semantic_logs[@]}"; do
	compare "$log" "${validate_commands[@]}"
done
echo "parallel: ${#logs[@]} logs, ${#commands[@]} commands;" \
	"${#semantic_logs[@]} more logs, ${#validate_commands[@]} validate" \
	"commands; $compared comparisons, $bad differ"
[ "$bad" -eq 0 ]
