# show takes one log; --format is text or ndjson; --pretty-time is for text
cmd: evtool show a.eventlog b.eventlog; echo "rc=$?"; evtool show --format xml @DATA@/user-n1.eventlog; echo "rc=$?"; evtool show --format ndjson --pretty-time @DATA@/user-n1.eventlog
exit: 2
--- stdout
rc=2
rc=2
--- stderr
evtool: show: too many operands ([FILE])
Run 'evtool show --help' for usage.
evtool: --format: 'xml' is not text or ndjson
Run 'evtool show --help' for usage.
evtool: --pretty-time is for the text format
Run 'evtool show --help' for usage.
