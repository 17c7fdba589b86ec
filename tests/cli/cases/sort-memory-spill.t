# a tiny memory limit: sorted runs spill to temporary files, merged in several passes, removed after
cmd: mkdir tmp; evtool sort -v --memory 64K --tmpdir tmp @DATA@/gc-n2.eventlog -o out.eventlog && evtool sort @DATA@/gc-n2.eventlog -o merged.eventlog && cmp out.eventlog merged.eventlog && evtool validate --sorted out.eventlog 2>/dev/null && ls -A tmp | wc -l
exit: 0
--- stdout
out.eventlog: valid (0 warnings, 7820 events)
0
--- stderr
evtool sort: sorted 7820 events in 1 session
evtool sort: 1 session by external sort, as indexing its capability streams takes more than half the memory limit: 13 sorted runs, 3 merge passes
evtool sort: 515661 bytes in temporary files
