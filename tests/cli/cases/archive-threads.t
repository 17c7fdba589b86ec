# one thread, four and -T0 (zstd's 'as many as the machine has') write the same bytes, and they round-trip
cmd: evtool archive --threads 1 @DATA@/gc-n2.eventlog -o t1.gz && evtool archive --threads 4 --level 9 @DATA@/gc-n2.eventlog -o t4.gz && evtool archive --threads 4 @DATA@/gc-n2.eventlog -o t4b.gz && evtool archive -T0 @DATA@/gc-n2.eventlog -o t0.gz && cmp t1.gz t4b.gz && cmp t1.gz t0.gz && gunzip -c t1.gz | cmp - @DATA@/gc-n2.eventlog && gunzip -c t4.gz | cmp - @DATA@/gc-n2.eventlog && evtool archive --test t4.gz
exit: 0
--- stdout
t4.gz: ok, 159009 bytes of log, xxh3-64 c4d133fe4cf78c27
--- stderr
