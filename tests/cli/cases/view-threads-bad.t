# view's -T is checked as the other commands' are, before the log is opened or the preview read (exit 2)
cmd: evtool view -T x @DATA@/gc-n2.eventlog
exit: 2
--- stdout
--- stderr
evtool view: --threads: 'x' is not a whole number from 0 to 256
Run 'evtool view --help' for usage.
