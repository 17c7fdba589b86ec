# --check on a log cut after its header whose complete events are in order: exit 3 (data dropped), said on standard error; the whole sorted log exits 0
cmd: evtool sort @DATA@/threads-n2.eventlog -o sorted.eventlog && evtool sort --check sorted.eventlog && evtool validate --sorted sorted.eventlog 2>/dev/null && head -c 40000 sorted.eventlog > cut.eventlog && evtool sort --check cut.eventlog
exit: 3
--- stdout
sorted.eventlog: in time order
sorted.eventlog: valid (0 warnings, 4250 events)
--- stderr
evtool sort: cut.eventlog: offset 39994: the log ends inside an event (6 of 14 bytes present): truncated; the events before the cut are in time order
