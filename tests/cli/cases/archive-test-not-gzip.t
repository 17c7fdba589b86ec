# --test on a plain log, an empty file and a missing file
cmd: : > empty.gz; evtool archive --test @DATA@/user-n1.eventlog empty.gz nosuch.gz
exit: 4
--- stdout
--- stderr
evtool: @DATA@/user-n1.eventlog: stored offset 0: not gzip data: it starts with "hdrb", an uncompressed eventlog
evtool: empty.gz: stored offset 0: the file is empty: no gzip data
evtool: nosuch.gz: cannot open: No such file or directory
