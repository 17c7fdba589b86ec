# --test on a plain log, an empty file and a missing file
cmd: : > empty.gz; evtool archive --test @DATA@/user-n1.eventlog empty.gz nosuch.gz
exit: 4
--- stdout
--- stderr
evtool archive: @DATA@/user-n1.eventlog: stored offset 0: not gzip data: it starts with "hdrb", an uncompressed eventlog
evtool archive: empty.gz: the file is empty: it holds no eventlog
evtool archive: nosuch.gz: cannot open: No such file or directory
