# 60 inputs with a soft open-file limit of 40: merge raises it; with a hard limit of 40 it says what to do
cmd: for i in $(seq 60); do cp @DATA@/merge-c.eventlog in$i.eventlog; done; (ulimit -Sn 40; evtool merge in*.eventlog -o out.eventlog) && evtool info out.eventlog | grep -E '^  events ' && evtool validate out.eventlog 2>/dev/null; ulimit -n 40; evtool merge in*.eventlog -o out2.eventlog
exit: 4
--- stdout
  events           12480 in 181 blocks, 1 session
out.eventlog: valid (0 warnings, 12480 events)
--- stderr
evtool merge: merging 60 inputs needs about 92 open files but the limit is 40 (ulimit -Hn); raise it, or merge the inputs in groups and then merge the results
