# merge refuses to write over one of its inputs (no --in-place hint: merge has none)
cmd: cp @DATA@/merge-a.eventlog a.eventlog; evtool merge a.eventlog @DATA@/merge-b.eventlog -o a.eventlog; rc=$?; cmp a.eventlog @DATA@/merge-a.eventlog && exit $rc
exit: 2
--- stderr
evtool merge: a.eventlog: refusing to overwrite an input file
