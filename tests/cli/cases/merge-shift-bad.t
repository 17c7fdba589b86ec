# a malformed --shift is a usage error before any input is read
cmd: evtool merge --shift 2=15x a b -o out.eventlog; echo $?; evtool merge --shift 3=1ms @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o out.eventlog; echo $?; evtool merge --shift 1=1s,1=2s a b -o out.eventlog; echo $?; evtool merge --align later a b -o out.eventlog
exit: 2
--- stdout
2
2
2
--- stderr
evtool merge: --shift: '2=15x' is not N=TIME (N from 1, TIME a signed duration: +15ms, -2s, 300us, 100 or 100ns)
Run 'evtool merge --help' for usage.
evtool merge: --shift: there is no input 3 (there are 2)
Run 'evtool merge --help' for usage.
evtool merge: --shift: input 1 is shifted twice
Run 'evtool merge --help' for usage.
evtool merge: --align: 'later' is not wall-clock, start or none
Run 'evtool merge --help' for usage.
