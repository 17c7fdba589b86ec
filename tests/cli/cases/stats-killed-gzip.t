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

  GC pauses   count       p50       p90       p99       max
  all            87    11.8us    89.8us     607us     607us
  Gen 0          86    11.3us    81.4us     607us     607us
  Gen 1           1     133us     133us     133us     133us

  Longest pauses         at  gen  cap
           607us  0.216669s    0    1
           502us  0.132713s    0    1
           500us  0.156665s    0    0
           483us  0.168616s    0    0
           249us  0.083887s    0    0
           152us  0.229265s    0    0
           133us  0.005645s    1    0
           132us  0.253167s    0    1
          89.8us  0.192733s    0    1
          81.4us  0.002457s    0    1
--- stderr
evtool: @DATA@/killed-blocks.eventlog.gz: offset 8389320: warning: the log ends without the data-end marker (after 12921 events); the figures cover the events before it
