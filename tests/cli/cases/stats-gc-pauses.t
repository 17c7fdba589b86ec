# stats on a GC-heavy run (gc-n2): pause percentiles overall and per generation, the 10 longest with when they began
cmd: evtool stats @DATA@/gc-n2.eventlog
exit: 0
--- stdout
@DATA@/gc-n2.eventlog: process 8534 (capset 0, 2 capabilities)
      22,861,472 bytes allocated in the heap
      21,565,664 bytes copied during GC
       2,698,472 bytes maximum residency (6 sample(s))
          39,128 bytes maximum slop
               7 MiB total memory in use

                                      Elapsed   Avg pause  Max pause
  Gen  0       344 colls,   344 par    0.018s     0.0001s    0.0049s
  Gen  1         6 colls,     5 par    0.006s     0.0010s    0.0046s

  Parallel GC work balance: 18.12% (serial 0%, perfect 100%)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  MUT     time  (  0.016s elapsed)  INIT and EXIT included
  GC      time  (  0.024s elapsed)
  Total   time  (  0.040s elapsed)

  Alloc rate    1,449,748,368 bytes per MUT second (elapsed)

  Productivity  39.2% of total elapsed

  GC pauses   count       p50       p90       p99       max
  all           350    16.9us    24.1us    2.60ms    4.94ms
  Gen 0         344    16.9us    23.0us    1.57ms    4.94ms
  Gen 1           6     296us    4.63ms    4.63ms    4.63ms

  Longest pauses         at  gen  cap
          4.94ms  0.029193s    0    1
          4.63ms  0.013527s    1    1
          3.14ms  0.023013s    0    1
          2.60ms  0.019535s    0    1
          1.57ms  0.027069s    0    1
           580us  0.009459s    1    1
           403us  0.006564s    1    1
           296us  0.004621s    1    1
           223us  0.035512s    1    1
          84.9us  0.002277s    1    1
--- stderr
