# stats --follow on standard input cut inside an event: the lines and the summary of its complete events, then the error and exit 3
cmd: head -c 40000 @DATA@/gc-n2.eventlog | evtool stats --follow --every 10ms -
exit: 3
--- stdout
      time   alloc rate       live       heap   GCs   GC time  productivity
   0.0100s    1.4 MiB/s          -        0 B     0       0ns        100.0%
   0.0190s        0 B/s          -        0 B     0       0ns        100.0%

<stdin>: process (pid unknown, capset 0, 1 capability)
          15,016 bytes allocated in the heap
               0 bytes copied during GC
               0 bytes maximum slop
               0 MiB total memory in use

  no collections

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  MUT     time  (  0.019s elapsed)  INIT and EXIT included
  GC      time  (  0.000s elapsed)
  Total   time  (  0.019s elapsed)

  Alloc rate    790,179 bytes per MUT second (elapsed)

  Productivity 100.0% of total elapsed
--- stderr
evtool stats: <stdin>: offset 39992: the log ends inside an event (8 of 10 bytes present)
hint: 'evtool truncate' repairs a log whose program was killed; 'evtool cat --reblock' keeps its complete events
