# gzip on standard input is inflated and validated
cmd: gzip -c @DATA@/sparks-n2.eventlog | evtool validate -
exit: 0
--- stdout
<stdin>: valid (0 warnings, 229 events)
--- stderr
