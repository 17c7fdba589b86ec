# a merged log: one process each, by capset, with its own program arguments
cmd: evtool merge @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o m.eventlog && evtool report m.eventlog -o m.html && grep -o '"capset":[0-9]*,"known":true,"pid":[0-9]*,"rts_identifier":"[^"]*","args":\["[^"]*","[^"]*"' m.html | sed 's/"pid":[0-9]*/"pid":N/'
exit: 0
--- stdout
"capset":0,"known":true,"pid":N,"rts_identifier":"GHC-9.0.2 rts_thr_l","args":["./worker","a"
"capset":2,"known":true,"pid":N,"rts_identifier":"GHC-9.0.2 rts_thr_l","args":["./worker","b"
--- stderr
