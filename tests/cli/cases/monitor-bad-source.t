# monitor: a SOURCE that does not exist (exit 4), that is no FIFO, file, directory or socket (exit 2), an empty socket path (exit 2), standard input (exit 2)
cmd: evtool monitor ./nowhere.fifo; echo "exit $?"; evtool monitor /dev/null; echo "exit $?"; evtool monitor unix:; echo "exit $?"; evtool monitor -; echo "exit $?"
exit: 0
--- stdout
exit 4
exit 2
exit 2
exit 2
--- stderr
evtool monitor: ./nowhere.fifo: No such file or directory
evtool monitor: /dev/null: not a FIFO, a file, a directory or unix:SOCKET
evtool monitor: unix:: a socket path of 1 to 107 bytes
evtool monitor: standard input is no SOURCE: give FIFOs, files, directories or unix:SOCKETs
