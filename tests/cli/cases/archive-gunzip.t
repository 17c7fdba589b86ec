# archive writes FILE.gz beside FILE, keeps FILE; gunzip and zcat restore it byte for byte
cmd: cp @DATA@/threads-n2.eventlog run.eventlog && evtool archive run.eventlog && gunzip -c run.eventlog.gz | cmp - @DATA@/threads-n2.eventlog && zcat run.eventlog.gz | cmp - run.eventlog && gzip -t run.eventlog.gz && ls -A
exit: 0
--- stdout
run.eventlog
run.eventlog.gz
--- stderr
