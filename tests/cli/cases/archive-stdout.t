# -o - writes the archive to standard output; standard input is archived too, to the same bytes
cmd: evtool archive @DATA@/sparks-n2.eventlog -o - > a.gz && gunzip -c a.gz | cmp - @DATA@/sparks-n2.eventlog && cat @DATA@/sparks-n2.eventlog | evtool archive - -o b.gz && cmp a.gz b.gz
exit: 0
--- stderr
