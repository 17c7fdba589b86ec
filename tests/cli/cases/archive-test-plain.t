# a plain gzip has no digest: --test warns and still checks the CRC-32 and the log
cmd: gzip -c @DATA@/sparks-n2.eventlog > s.gz && evtool archive --test s.gz
exit: 0
--- stdout
s.gz: ok, 7348 bytes of log, xxh3-64 b540660dd8b6df4b
--- stderr
evtool archive: s.gz: warning: no xxh3-64 digest in the gzip header (a plain gzip file); checked the CRC-32, the length and the log
