# gzip on standard input is recognised and inflated
cmd: gzip -c @DATA@/sparks-n2.eventlog | evtool cat - -o out.eventlog && cmp @DATA@/sparks-n2.eventlog out.eventlog
exit: 0
--- stderr
