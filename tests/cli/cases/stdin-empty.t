# no input named and standard input not a terminal: it is read, here empty (a usage error only on a terminal), so no eventlog (exit 1, the one message of an empty input)
cmd: evtool show < /dev/null; echo "show: $?"; evtool cat < /dev/null | wc -c; echo "cat: ${PIPESTATUS[0]}"
exit: 0
--- stdout
show: 1
0
cat: 1
--- stderr
evtool show: <stdin>: the file is empty: it holds no eventlog
evtool cat: <stdin>: the file is empty: it holds no eventlog
