# a missing input is an I/O error naming the file
cmd: evtool cat nosuch.eventlog -o out.eventlog
exit: 4
--- stderr
evtool cat: nosuch.eventlog: cannot open: No such file or directory
