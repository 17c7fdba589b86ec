# a SIGKILLed program's gzip log without its global block: one process (capset 0) from the heap events, a warning, exit 3
cmd: evtool stats @DATA@/killed-blocks.eventlog.gz
exit: 3
--- stdout
@DATA@/killed-blocks.eventlog.gz: process (pid unknown, capset 0, 2 capabilities)
     198,922,272 bytes allocated in the heap
         213,048 bytes copied during GC
          65,344 bytes maximum residency (1 sample(s))
          16,576 bytes maximum slop
               3 MiB total memory in use

                                      Elapsed   Avg pause  Max pause
  Gen  0        86 colls,    86 par    0.004s     0.0000s    0.0006s
  Gen  1         1 colls,     1 par    0.000s     0.0001s    0.0001s

  Parallel GC work balance: 9.96% (serial 0%, perfect 100%)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  MUT     time  (  0.258s elapsed)  INIT and EXIT included
  GC      time  (  0.004s elapsed)
  Total   time  (  0.263s elapsed)

  Alloc rate    770,244,212 bytes per MUT second (elapsed)

  Productivity  98.4% of total elapsed
--- stderr
evtool stats: @DATA@/killed-blocks.eventlog.gz: offset 8389320: warning: the log ends without the data-end marker (after 12921 events); the figures cover the events before it
