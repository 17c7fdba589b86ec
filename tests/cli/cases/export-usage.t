# an unknown format and a second operand are usage errors
cmd: evtool export --format svg @DATA@/threads-n1.eventlog; echo "exit $?"; evtool export @DATA@/threads-n1.eventlog @DATA@/threads-n2.eventlog; echo "exit $?"
exit: 0
--- stdout
exit 2
exit 2
--- stderr
evtool export: --format: 'svg' is not perfetto, speedscope or hp
Run 'evtool export --help' for usage.
evtool export: too many operands ([LOG] [--format perfetto|speedscope|hp] [-o OUT])
Run 'evtool export --help' for usage.
