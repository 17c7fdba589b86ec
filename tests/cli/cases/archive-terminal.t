# compressed output to a terminal is refused (on_tty.py provides the terminal)
cmd: python3 @CASES@/../on_tty.py sh -c 'evtool archive @DATA@/user-n1.eventlog -o -' | tr -d '\r'
exit: 2
--- stdout
evtool: refusing to write binary data to a terminal; use -o FILE or redirect
