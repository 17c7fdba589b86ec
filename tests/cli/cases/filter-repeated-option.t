# a repeated list option would lose a list: refused
cmd: evtool filter @DATA@/user-n1.eventlog --class gc --class user -o out.eventlog
exit: 2
--- stdout
--- stderr
evtool: --class given 2 times: give it once, with a comma-separated list
Run 'evtool filter --help' for usage.
