# compressed output to a terminal is refused (script(1) provides the terminal)
cmd: script -qec 'evtool archive @DATA@/user-n1.eventlog -o -' /dev/null | tr -d '\r'
exit: 2
--- stdout
evtool: refusing to write compressed data to a terminal; use -o FILE or redirect standard output
