# an empty input (the message every command gives it), or one cut inside its first header (the reader's message), is no log: exit 1, nothing written
cmd: : > empty.eventlog; head -c 100 @DATA@/threads-n2.eventlog > cut.eventlog; evtool sort empty.eventlog -o out1.eventlog; echo "rc=$?"; evtool sort cut.eventlog -o out2.eventlog; rc=$?; ls; exit $rc
exit: 1
--- stdout
rc=1
cut.eventlog
empty.eventlog
--- stderr
evtool sort: empty.eventlog: the file is empty: it holds no eventlog
evtool sort: cut.eventlog: offset 0: the input ends inside the header (100 bytes of it read)
