# a log whose runtime wrote its heap censuses without HEAP_PROF_SAMPLE_END (heap-n1 with 165 dropped by redeclare.py --drop, as older GHCs wrote them) merged with one that ends them (heap-a, aligned by start so that their censuses interleave): the merged header declares 165, so each census of the first input is ended with one (its era, its last time), said once as a warning naming the input, and the output validates; the same log merged with itself needs none
cmd: python3 @CASES@/redeclare.py --drop 165 @DATA@/heap-n1.eventlog old.eventlog; evtool validate old.eventlog; evtool merge --no-progress --align start old.eventlog @DATA@/heap-a.eventlog -o m.eventlog 2>&1 | grep -v 'stamped inside'; evtool validate m.eventlog; evtool info m.eventlog | grep -E 'HEAP_PROF_SAMPLE_(BEGIN|END)'; evtool merge --no-progress old.eventlog old.eventlog -o s.eventlog 2>&1 | grep -v 'stamped inside'; evtool info s.eventlog | grep -E 'HEAP_PROF_SAMPLE_(BEGIN|END)'
exit: 0
--- stdout
old.eventlog: valid (0 warnings, 3629 events)
evtool merge: old.eventlog: warning: 17 heap samples ended with a HEAP_PROF_SAMPLE_END (165), which its (older) runtime did not write and another input's did
m.eventlog: valid (0 warnings, 8265 events)
    HEAP_PROF_SAMPLE_BEGIN             162           56
    HEAP_PROF_SAMPLE_END               165           56
    HEAP_PROF_SAMPLE_BEGIN             162           34
--- stderr
