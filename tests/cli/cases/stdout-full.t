# standard output cannot be written (a full disk): one message, exit 4, for the commands that print text and those that write a log
cmd: for c in show info stats validate export cat; do evtool $c @DATA@/user-n1.eventlog > /dev/full; echo "$c $?"; done
exit: 0
--- stdout
show 4
info 4
stats 4
validate 4
export 4
cat 4
--- stderr
evtool show: cannot write standard output: No space left on device
evtool info: cannot write standard output: No space left on device
evtool stats: cannot write standard output: No space left on device
evtool validate: cannot write standard output: No space left on device
evtool export: <stdout>: No space left on device
evtool cat: <stdout>: write failed: No space left on device
