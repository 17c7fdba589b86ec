# monitor needs a SOURCE
cmd: evtool monitor
exit: 2
--- stdout
--- stderr
evtool monitor: standard input is no SOURCE: give FIFOs, files, directories or unix:SOCKETs
