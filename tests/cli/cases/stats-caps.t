# stats --caps: mutator, GC and idle time per capability, and the migrations between them (threads-n4: 4 caps)
cmd: evtool stats --caps @DATA@/threads-n4.eventlog
exit: 0
--- stdout
@DATA@/threads-n4.eventlog: process 8509 (capset 0, 4 capabilities)
         317,312 bytes allocated in the heap
          45,776 bytes copied during GC
          86,800 bytes maximum residency (1 sample(s))
          52,464 bytes maximum slop
               5 MiB total memory in use

                                      Elapsed   Avg pause  Max pause
  Gen  0         0 colls,     0 par    0.000s     0.0000s    0.0000s
  Gen  1         1 colls,     0 par    0.000s     0.0001s    0.0001s

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  MUT     time  (  0.040s elapsed)  INIT and EXIT included
  GC      time  (  0.000s elapsed)
  Total   time  (  0.040s elapsed)

  Alloc rate    7,912,812 bytes per MUT second (elapsed)

  Productivity  99.7% of total elapsed

  GC pauses   count       p50       p90       p99       max
  all             1     138us     138us     138us     138us
  Gen 1           1     138us     138us     138us     138us

  Longest pauses         at  gen  cap
           138us  0.031143s    1    3

  Capabilities
  cap 0: mutator 8.38ms (20.8%), GC 0ns (0.0%), idle 31.9ms (79.2%) of 40.2ms; 494 runs, 18 migrations out, 13 in
  cap 1: mutator 6.93ms (17.2%), GC 0ns (0.0%), idle 33.3ms (82.8%) of 40.2ms; 422 runs, 15 migrations out, 16 in
  cap 2: mutator 2.76ms (6.9%), GC 0ns (0.0%), idle 37.5ms (93.1%) of 40.2ms; 317 runs, 12 migrations out, 13 in
  cap 3: mutator 4.61ms (11.5%), GC 138us (0.3%), idle 35.5ms (88.2%) of 40.2ms; 206 runs, 6 migrations out, 9 in
--- stderr
