# every size option takes K, M, G (powers of 1024, with an optional B or iB): truncate --bytes 40K cuts where --bytes 40960 does and 150M keeps a whole log; cat --block-size 4k and sort --block-size 4KiB and --memory 64KB write what the byte counts write; filter --block-size 1.5K; a size out of range names its bounds
cmd: log=@DATA@/threads-n2.eventlog; evtool truncate -q --bytes 40K $log -o k.eventlog; evtool truncate -q --bytes 40960 $log -o n.eventlog; cmp k.eventlog n.eventlog && evtool validate k.eventlog; evtool truncate --bytes 150M $log -o all.eventlog && cmp all.eventlog $log && echo whole; evtool cat --reblock --block-size 4k $log -o c1.eventlog && evtool cat --reblock --block-size 4096 $log -o c2.eventlog && cmp c1.eventlog c2.eventlog && evtool info c1.eventlog | grep '^  events'; evtool sort --memory 64KB --block-size 4KiB $log -o s1.eventlog && evtool sort --memory 65536 --block-size 4096 $log -o s2.eventlog && cmp s1.eventlog s2.eventlog && echo sorted; evtool filter --block-size 1.5K $log -o f1.eventlog && evtool filter --block-size 1536 $log -o f2.eventlog && cmp f1.eventlog f2.eventlog && echo filtered; evtool cat --reblock --block-size 3M $log -o x.eventlog; echo "exit $?"; evtool truncate --bytes 1.5 $log -o x.eventlog; echo "exit $?"
exit: 0
--- stdout
k.eventlog: valid (0 warnings, 2284 events)
whole
  events           4250 in 19 blocks, 1 session
sorted
filtered
exit 2
exit 2
--- stderr
evtool truncate: @DATA@/threads-n2.eventlog: kept 4250 events in 3 blocks, times 227240 to 30284298 ns (0.030057 s); the log was complete, nothing dropped
evtool cat: --block-size: '3M' is not a size from 64 to 2M (bytes, or with K, M, G or T, powers of 1024: 150M, 1.5G)
Run 'evtool cat --help' for usage.
evtool truncate: --bytes: '1.5' is not a size (bytes, or with K, M, G or T, powers of 1024: 150M, 1.5G)
Run 'evtool truncate --help' for usage.
