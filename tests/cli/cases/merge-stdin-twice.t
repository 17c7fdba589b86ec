# standard input can be one input only
cmd: evtool merge - - -o out.eventlog
exit: 2
--- stderr
evtool merge: standard input ('-') can be merged only once
Run 'evtool merge --help' for usage.
