# an empty file holds no eventlog: every command says so in one message and exits 1 (invalid input), as a file given as standard input; nothing else is printed or written
cmd: : > e.eventlog; for c in cat info show filter stats report sort merge export validate truncate archive; do evtool $c e.eventlog > out; echo "$c $? $(wc -c < out)"; done; evtool info < e.eventlog; echo "stdin $?"; ls
exit: 0
--- stdout
cat 1 0
info 1 0
show 1 0
filter 1 0
stats 1 0
report 1 0
sort 1 0
merge 1 0
export 1 0
validate 1 0
truncate 1 0
archive 1 0
stdin 1
e.eventlog
out
--- stderr
evtool cat: e.eventlog: the file is empty: it holds no eventlog
evtool info: e.eventlog: the file is empty: it holds no eventlog
evtool show: e.eventlog: the file is empty: it holds no eventlog
evtool filter: e.eventlog: the file is empty: it holds no eventlog
evtool stats: e.eventlog: the file is empty: it holds no eventlog
evtool report: e.eventlog: the file is empty: it holds no eventlog
evtool sort: e.eventlog: the file is empty: it holds no eventlog
evtool merge: e.eventlog: the file is empty: it holds no eventlog
evtool export: e.eventlog: the file is empty: it holds no eventlog
evtool validate: e.eventlog: the file is empty: it holds no eventlog
evtool truncate: e.eventlog: the file is empty: it holds no eventlog
evtool archive: e.eventlog: the file is empty: it holds no eventlog
evtool info: <stdin>: the file is empty: it holds no eventlog
