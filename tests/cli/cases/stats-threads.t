# stats --threads on the MVar ping-pong (threads-n1): 1,120 of 1,157 stops are "blocked on an MVar", per thread with labels
cmd: evtool stats --threads @DATA@/threads-n1.eventlog
exit: 0
--- stdout
@DATA@/threads-n1.eventlog: process 8492 (capset 0, 1 capability)
         248,352 bytes allocated in the heap
          15,816 bytes copied during GC
          56,840 bytes maximum residency (1 sample(s))
          29,176 bytes maximum slop
               2 MiB total memory in use

                                      Elapsed   Avg pause  Max pause
  Gen  0         0 colls,     0 par    0.000s     0.0000s    0.0000s
  Gen  1         1 colls,     0 par    0.000s     0.0001s    0.0001s

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  MUT     time  (  0.020s elapsed)  INIT and EXIT included
  GC      time  (  0.000s elapsed)
  Total   time  (  0.020s elapsed)

  Alloc rate    12,345,005 bytes per MUT second (elapsed)

  Productivity  99.4% of total elapsed

  GC pauses   count       p50       p90       p99       max
  all             1     114us     114us     114us     114us
  Gen 1           1     114us     114us     114us     114us

  Longest pauses         at  gen  cap
           114us  0.019205s    1    0

  Threads: 10, 1,157 runs, 489us running
  Stops: 1,157: 1,120 blocked on an MVar (96.8%), 19 making a foreign call (1.6%), 10 thread finished (0.9%), 7 thread yielding (0.6%), 1 stack overflow (0.1%)

    thread      runs   run time migrations  label, stops
         4       190      109us          0  "main" 186 blocked on an MVar, 2 thread yielding, 1 stack overflow, 1 thread finished
         1         3     81.8us          0  2 thread yielding, 1 thread finished
         3        18     72.9us          0  "TimerManager" 17 making a foreign call, 1 thread finished
         6       191     55.1us          0  "stage-1" 190 blocked on an MVar, 1 thread finished
         5       187     46.6us          0  "stage-0" 185 blocked on an MVar, 1 thread yielding, 1 thread finished
         8       188     44.1us          0  "stage-3" 187 blocked on an MVar, 1 thread finished
         7       191     35.2us          0  "stage-2" 189 blocked on an MVar, 1 thread yielding, 1 thread finished
         9       184     21.8us          0  "sink" 183 blocked on an MVar, 1 thread finished
         2         3     15.5us          0  "IOManager on cap 0" 1 thread yielding, 1 thread finished, 1 making a foreign call
        10         2     6.71us          0  1 thread finished, 1 making a foreign call
--- stderr
