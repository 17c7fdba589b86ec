# -v reports sizes, ratio and digest
cmd: evtool archive -v @DATA@/sparks-n2.eventlog -o s.gz && evtool archive -v -x s.gz -o s.eventlog
exit: 0
--- stdout
--- stderr
@DATA@/sparks-n2.eventlog -> s.gz: log 7348 bytes, archive 2862 bytes (38.9%), xxh3-64 b540660dd8b6df4b
s.gz -> s.eventlog: log 7348 bytes, archive 2862 bytes (38.9%), xxh3-64 b540660dd8b6df4b
