# no input named and standard input not a terminal: it is read, here empty (a usage error only on a terminal)
cmd: evtool show < /dev/null; echo "show: $?"; evtool cat < /dev/null | wc -c; echo "cat: ${PIPESTATUS[0]}"
exit: 0
--- stdout
show: 1
0
cat: 1
--- stderr
evtool: <stdin>: the input ends inside the header (0 bytes of it read)
evtool: <stdin>: offset 0: the input ends inside the header (0 bytes of it read)
hint: 'evtool truncate' repairs a log whose program was killed; 'evtool cat --reblock' keeps its complete events
