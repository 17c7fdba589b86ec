# a merged log of two gzip-compressed processes: one summary per process, by capset
cmd: gzip -c @DATA@/merge-a.eventlog > a.gz; gzip -c @DATA@/merge-b.eventlog > b.gz; evtool merge a.gz b.gz -o ab.eventlog && evtool stats ab.eventlog
exit: 0
--- stdout
ab.eventlog: process 8605 (capset 0, 1 capability)
          95,920 bytes allocated in the heap
          15,816 bytes copied during GC
          56,840 bytes maximum residency (1 sample(s))
          29,176 bytes maximum slop
               2 MiB total memory in use

                                      Elapsed   Avg pause  Max pause
  Gen  0         0 colls,     0 par    0.000s     0.0000s    0.0000s
  Gen  1         1 colls,     0 par    0.000s     0.0001s    0.0001s

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  MUT     time  (  0.200s elapsed)  INIT and EXIT included
  GC      time  (  0.000s elapsed)
  Total   time  (  0.200s elapsed)

  Alloc rate    479,351 bytes per MUT second (elapsed)

  Productivity  99.9% of total elapsed

  GC pauses   count       p50       p90       p99       max
  all             1     102us     102us     102us     102us
  Gen 1           1     102us     102us     102us     102us

  Longest pauses         at  gen  cap
           102us  0.191440s    1    0

ab.eventlog: process 8613 (capset 2, 2 capabilities)
         109,920 bytes allocated in the heap
          25,496 bytes copied during GC
          66,520 bytes maximum residency (1 sample(s))
          35,880 bytes maximum slop
               3 MiB total memory in use

                                      Elapsed   Avg pause  Max pause
  Gen  0         0 colls,     0 par    0.000s     0.0000s    0.0000s
  Gen  1         1 colls,     0 par    0.000s     0.0001s    0.0001s

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  MUT     time  (  0.200s elapsed)  INIT and EXIT included
  GC      time  (  0.000s elapsed)
  Total   time  (  0.200s elapsed)

  Alloc rate    549,868 bytes per MUT second (elapsed)

  Productivity  99.9% of total elapsed

  GC pauses   count       p50       p90       p99       max
  all             1     116us     116us     116us     116us
  Gen 1           1     116us     116us     116us     116us

  Longest pauses         at  gen  cap
           116us  0.242616s    1    1
--- stderr
