# stats --follow on a complete file: a line per 5ms of the log's time (allocation rate, live and total heap, GCs, GC time, productivity), then the summary
cmd: evtool stats --follow --every 5ms @DATA@/threads-n2.eventlog
exit: 0
--- stdout
      time   alloc rate       live       heap   GCs   GC time  productivity
   0.0050s            -          -          -     -         -             -
   0.0100s            -          -          -     -         -             -
   0.0150s            -          -          -     -         -             -
   0.0200s            -          -          -     -         -             -
   0.0250s            -          -          -     -         -             -
   0.0300s   20.2 MiB/s          -        0 B     0       0ns        100.0%
   0.0302s  676.9 MiB/s   65.3 KiB    3.0 MiB     1     122us         99.6%

@DATA@/threads-n2.eventlog: process 8499 (capset 0, 2 capabilities)
         271,448 bytes allocated in the heap
          25,888 bytes copied during GC
          66,912 bytes maximum residency (1 sample(s))
          35,488 bytes maximum slop
               3 MiB total memory in use

                                      Elapsed   Avg pause  Max pause
  Gen  0         0 colls,     0 par    0.000s     0.0000s    0.0000s
  Gen  1         1 colls,     0 par    0.000s     0.0001s    0.0001s

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  MUT     time  (  0.030s elapsed)  INIT and EXIT included
  GC      time  (  0.000s elapsed)
  Total   time  (  0.030s elapsed)

  Alloc rate    9,014,672 bytes per MUT second (elapsed)

  Productivity  99.6% of total elapsed

  GC pauses   count       p50       p90       p99       max
  all             1     122us     122us     122us     122us
  Gen 1           1     122us     122us     122us     122us

  Longest pauses         at  gen  cap
           122us  0.028302s    1    1
--- stderr
