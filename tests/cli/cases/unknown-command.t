# an unknown command is a usage error
cmd: evtool frobnicate
exit: 2
--- stderr
evtool: unknown command 'frobnicate'
Run 'evtool --help' for usage.
