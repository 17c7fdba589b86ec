# validate needs a FILE
cmd: evtool validate
exit: 2
--- stdout
--- stderr
evtool validate: missing operand (FILE...)
Run 'evtool validate --help' for usage.
