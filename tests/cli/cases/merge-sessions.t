# two runs' logs concatenated (two sessions, which validate accepts) are refused as a merge input, naming the second session's offset, exit 2, nothing written; their sessions extracted merge into a valid log of all their events
cmd: cat @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog > both.eventlog; evtool validate both.eventlog || exit 9; evtool merge --no-progress both.eventlog -o out.eventlog; echo "rc=$?"; test -e out.eventlog && exit 8; evtool truncate -q --session 1 both.eventlog -o s1.eventlog && evtool truncate -q --session 2 both.eventlog -o s2.eventlog && evtool merge --no-progress s1.eventlog s2.eventlog -o out.eventlog && evtool validate out.eventlog
exit: 0
--- stdout
both.eventlog: valid (0 warnings, 322 events)
rc=2
out.eventlog: valid (0 warnings, 322 events)
--- stderr
evtool merge: both.eventlog: offset 5513: session 2 begins: merge takes one session per input (a restarted eventlog or logs concatenated); evtool truncate --session N extracts session N
hint: evtool info lists the sessions; merge each one extracted with evtool truncate --session N as an input
