# no command: usage on stderr, exit 2
cmd: evtool
exit: 2
