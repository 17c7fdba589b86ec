# an empty input, or one cut inside its first header, is an error naming it (exit 1), not a process of 0 events; nothing written
cmd: : > empty.eventlog; head -c 100 @DATA@/merge-b.eventlog > cut.eventlog; evtool merge --align start @DATA@/merge-a.eventlog empty.eventlog -o out1.eventlog; echo "rc=$?"; evtool merge --align start cut.eventlog @DATA@/merge-a.eventlog -o out2.eventlog; rc=$?; ls; exit $rc
exit: 1
--- stdout
rc=1
cut.eventlog
empty.eventlog
--- stderr
evtool merge: empty.eventlog: the file is empty: it holds no eventlog
evtool merge: cut.eventlog: offset 0: the input ends inside the header (100 bytes of it read)
