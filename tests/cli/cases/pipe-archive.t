# archive as gzip: standard input to standard output when no file is named, both ways; the archive is the one of the file
cmd: evtool archive < @DATA@/user-n1.eventlog > u.gz; echo "archive: $?"; evtool archive --test u.gz && evtool archive @DATA@/user-n1.eventlog -o f.gz && cmp u.gz f.gz && evtool archive --extract < u.gz | cmp - @DATA@/user-n1.eventlog && evtool archive --test < u.gz
exit: 0
--- stdout
archive: 0
u.gz: ok, 5298 bytes of log, xxh3-64 106a9cc9e1df0f7b
<stdin>: ok, 5298 bytes of log, xxh3-64 106a9cc9e1df0f7b
--- stderr
