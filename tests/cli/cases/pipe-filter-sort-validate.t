# evtool filter a --class gc | evtool sort | evtool validate: each stage reads the one before it; every exit status 0
cmd: evtool filter @DATA@/threads-n4.eventlog --class gc,scheduler | evtool sort | evtool validate --strict; echo "${PIPESTATUS[*]}"; evtool sort @DATA@/threads-n4.eventlog | evtool sort --check
exit: 0
--- stdout
<stdin>: valid (0 warnings, 6849 events)
0 0 0
<stdin>: in time order
--- stderr
