# cat without an input
cmd: evtool cat -o out
exit: 2
--- stderr
evtool cat: missing operand (IN... -o OUT)
Run 'evtool cat --help' for usage.
