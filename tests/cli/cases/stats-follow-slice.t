# stats --follow of a slice (gc-n2 from 20 ms, which stats counts from its
# first event): its last line's productivity is the summary's, 38.0%, not
# the share of GC time in the run's whole 40 ms before the slice ended
cmd: evtool filter @DATA@/gc-n2.eventlog --from 20ms | evtool stats --follow --every 10ms - | grep -E '^ *[0-9.]+s |Productivity'
exit: 0
--- stdout
   0.0200s            -          -          -     -         -             -
   0.0300s    1.4 MiB/s          -        0 B     0       0ns        100.0%
   0.0400s   14.1 KiB/s          -        0 B     0       0ns        100.0%
   0.0402s   19.5 GiB/s   64.7 KiB    5.0 MiB    71    11.2ms         38.0%
  Productivity  38.0% of total elapsed
--- stderr
