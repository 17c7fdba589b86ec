# stats on slices of one run (filter --from/--to) reports each slice: allocation from its first HEAP_ALLOCATED values, elapsed time from its first event, and says it is a slice; the first slice starts with the run, so it counts from 0 like the whole log
cmd: for w in '0 10ms' '10ms 20ms' '20ms 30ms'; do set -- $w; evtool filter @DATA@/gc-n2.eventlog --from $1 --to $2 -o s.eventlog && evtool stats s.eventlog | grep -E 'slice|allocated in|Total'; done; evtool stats --json @DATA@/gc-n2.eventlog | python3 -c 'import json,sys; p=json.load(sys.stdin)["files"][0]["processes"][0]; print("whole log: slice", p["slice"], "allocated", p["allocated_bytes"], "start", p["start_ns"])'
exit: 0
--- stdout
      11,074,256 bytes allocated in the heap
  Total   time  (  0.010s elapsed)
  a slice of the run, from 0.010023 s: figures count from its first event, not from the start
       7,102,456 bytes allocated in the heap
  Total   time  (  0.010s elapsed)
  a slice of the run, from 0.022131 s: figures count from its first event, not from the start
       2,997,888 bytes allocated in the heap
  Total   time  (  0.007s elapsed)
whole log: slice False allocated 22861472 start 0
