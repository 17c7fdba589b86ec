# stats prints the +RTS -s figures of a parallel run; the counts are those of sparks-n2.rts-s.txt
cmd: evtool stats @DATA@/sparks-n2.eventlog
exit: 0
--- stdout
@DATA@/sparks-n2.eventlog: process 8525 (capset 0, 2 capabilities)
       6,558,704 bytes allocated in the heap
         112,168 bytes copied during GC
          67,592 bytes maximum residency (2 sample(s))
          38,904 bytes maximum slop
               3 MiB total memory in use

                                      Elapsed   Avg pause  Max pause
  Gen  0         3 colls,     3 par    0.000s     0.0000s    0.0000s
  Gen  1         2 colls,     1 par    0.000s     0.0001s    0.0001s

  Parallel GC work balance: 89.61% (serial 0%, perfect 100%)

  SPARKS: 776 (8 converted, 0 overflowed, 0 dud, 550 GC'd, 218 fizzled)

  MUT     time  (  0.020s elapsed)  INIT and EXIT included
  GC      time  (  0.000s elapsed)
  Total   time  (  0.020s elapsed)

  Alloc rate    327,085,448 bytes per MUT second (elapsed)

  Productivity  98.9% of total elapsed

  GC pauses   count       p50       p90       p99       max
  all             5    37.0us    84.5us    84.5us    84.5us
  Gen 0           3    16.2us    37.0us    37.0us    37.0us
  Gen 1           2    65.6us    84.5us    84.5us    84.5us

  Longest pauses         at  gen  cap
          84.5us  0.009669s    1    1
          65.6us  0.010049s    1    1
          37.0us  0.009235s    0    1
          16.2us  0.009469s    0    1
          13.2us  0.009974s    0    0
--- stderr
