# standard output appending to an input (x >> x, or x given as standard input) is refused as -o x is, before anything is written, for every command that writes standard output; the input stays untouched, and an output elsewhere (-o) is fine; a file size limit (512 KiB) stops a command that would append to its own input without end
cmd: ulimit -f 1024; cp @DATA@/threads-n1.eventlog x.eventlog; for c in cat filter sort merge truncate show info stats validate export report "archive -c"; do evtool $c x.eventlog >> x.eventlog; echo "$c $?"; done; evtool cat < x.eventlog >> x.eventlog; echo "stdin $?"; evtool filter --class gc x.eventlog -o gc.eventlog >> x.eventlog; echo "-o $?"; cmp x.eventlog @DATA@/threads-n1.eventlog && echo untouched
exit: 0
--- stdout
cat 2
filter 2
sort 2
merge 2
truncate 2
show 2
info 2
stats 2
validate 2
export 2
report 2
archive -c 2
stdin 2
-o 0
untouched
--- stderr
evtool cat: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool filter: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool sort: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool merge: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool truncate: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool show: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool info: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool stats: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool validate: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool export: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool report: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool archive: <stdout>: is the input x.eventlog: refusing to write to an input file
evtool cat: <stdout>: is the input <stdin>: refusing to write to an input file
