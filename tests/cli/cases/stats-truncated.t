# a log cut mid-event from standard input: figures of its complete events, a warning with the offset, exit 3
cmd: head -c 30000 @DATA@/gc-n2.eventlog | evtool stats -
exit: 3
--- stdout
<stdin>: process (pid unknown, capset 0, 1 capability)
          15,016 bytes allocated in the heap
               0 bytes copied during GC
               0 bytes maximum slop
               0 MiB total memory in use

  no collections

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  MUT     time  (  0.011s elapsed)  INIT and EXIT included
  GC      time  (  0.000s elapsed)
  Total   time  (  0.011s elapsed)

  Alloc rate    1,364,795 bytes per MUT second (elapsed)

  Productivity 100.0% of total elapsed
--- stderr
evtool stats: <stdin>: offset 29994: warning: the log ends inside an event (6 of 10 bytes present); the figures cover the events before it
