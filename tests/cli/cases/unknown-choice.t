# a mistyped value of a choice (--format) gets the closest choice, as a mistyped option does; a far one only the list
cmd: evtool show --format ndjsn @DATA@/user-n1.eventlog; echo "exit $?"; evtool export --format perfeto @DATA@/user-n1.eventlog; evtool export --format speedscop @DATA@/user-n1.eventlog; evtool export --format svg @DATA@/user-n1.eventlog; echo "exit $?"
exit: 0
--- stdout
exit 2
exit 2
--- stderr
evtool show: --format: 'ndjsn' is not text or ndjson
hint: did you mean 'ndjson'?
Run 'evtool show --help' for usage.
evtool export: --format: 'perfeto' is not perfetto, speedscope or hp
hint: did you mean 'perfetto'?
Run 'evtool export --help' for usage.
evtool export: --format: 'speedscop' is not perfetto, speedscope or hp
hint: did you mean 'speedscope'?
Run 'evtool export --help' for usage.
evtool export: --format: 'svg' is not perfetto, speedscope or hp
Run 'evtool export --help' for usage.
