# --extract of a damaged archive fails and leaves no output or temporary file
cmd: evtool archive @DATA@/threads-n2.eventlog -o a.eventlog.gz && printf '\xff' | dd of=a.eventlog.gz bs=1 seek=9000 conv=notrunc 2>/dev/null && evtool archive --extract a.eventlog.gz; rc=$?; ls -A; exit $rc
exit: 1
--- stdout
a.eventlog.gz
--- stderr
evtool archive: a.eventlog.gz: stored offset 9003: the compressed data of gzip member 1 is corrupt (invalid distance too far back); 29970 bytes of log were restored before it
