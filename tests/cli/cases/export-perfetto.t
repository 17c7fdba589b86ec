# perfetto: valid JSON; one thread slice per STOP_THREAD of a running thread
# (as many as ghc-events show's "stopping thread" lines), one GC slice per
# GC_START, labelled threads named by their label, one track per cap
cmd: evtool export @DATA@/threads-n2.eventlog -o t.json && evtool show @DATA@/threads-n2.eventlog > s.txt && python3 @CASES@/../../export/perfetto_summary.py t.json s.txt
exit: 0
--- stdout
thread slices = stops: True
GC slices = GC starts: True
named slices = labels: True ['IOManager on cap 0', 'IOManager on cap 1', 'TimerManager', 'main', 'sink', 'stage-0', 'stage-1', 'stage-2', 'stage-3']
tracks: ['cap 0', 'cap 1']
--- stderr
