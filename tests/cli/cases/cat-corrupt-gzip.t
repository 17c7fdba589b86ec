# corrupt gzip data is reported, not crashed on
cmd: gzip -c @DATA@/user-n1.eventlog > l.gz && printf 'XXXXXXXX' | dd of=l.gz bs=1 seek=200 conv=notrunc 2>/dev/null; evtool cat l.gz -o out.eventlog
exit: 1
--- stderr
evtool cat: l.gz: offset 115: gzip data is corrupt (invalid distance too far back) near stored offset 203
