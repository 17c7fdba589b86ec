# a wall-clock --at: refused for a log without WALL_CLOCK_TIME (exit 1), for standard input and for a log of several sessions without --session (exit 2); with --session it cuts that session
cmd: evtool truncate --at 2026-11-22T03:25:56Z @DATA@/killed-sigkill.eventlog -o x.eventlog; echo "exit $?"; evtool truncate --at 2026-11-22T03:25:56Z - -o x.eventlog < @DATA@/threads-n2.eventlog; echo "exit $?"; cat @DATA@/threads-n2.eventlog @DATA@/threads-n2.eventlog > two.eventlog; evtool truncate --at 2026-11-22T03:25:56.008437550Z two.eventlog -o x.eventlog; echo "exit $?"; evtool truncate -q --session 2 --at 2026-11-22T03:25:56.008437550Z two.eventlog -o s2.eventlog; echo "exit $?"; evtool truncate -q --at +10ms @DATA@/threads-n2.eventlog -o a.eventlog && cmp a.eventlog s2.eventlog && ls -A
exit: 0
--- stdout
exit 1
exit 2
exit 2
exit 0
a.eventlog
s2.eventlog
two.eventlog
--- stderr
evtool truncate: @DATA@/killed-sigkill.eventlog: --at session 1 has no WALL_CLOCK_TIME event, so a wall-clock time cannot be placed in it
evtool truncate: --at with a wall-clock time reads the log twice: give a file, not standard input
Run 'evtool truncate --help' for usage.
evtool truncate: two.eventlog: --at needs a session: the log holds 2 sessions, each with its own clock
