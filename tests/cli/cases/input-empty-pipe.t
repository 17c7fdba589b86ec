# an empty pipe (a writer that closes before its first byte) holds no eventlog either: every command, monitor --once and the follow modes once the pipe closes, say so in the one message of an empty file and exit 1 (invalid input); nothing else is printed or written; with a real log and an empty pipe, merge names the empty one; a FIFO whose writer closes at once is the same; a follow mode still waits for a writer that has not written yet
cmd: for c in cat info show filter stats report sort merge export validate truncate archive "sort --check" "info --json" "stats --json" "show --follow" "stats --follow" "monitor --once"; do : | evtool $c - > out; echo "$c $? $(wc -c < out)"; done; true | evtool merge @DATA@/gc-n2.eventlog - -o m.eventlog; echo "merge log+pipe $?"; mkfifo f.fifo; : > f.fifo & evtool validate f.fifo; echo "fifo $?"; wait; rm f.fifo; (sleep 1; cat @DATA@/gc-n2.eventlog) | evtool show --follow - | cmp - <(evtool show --follow @DATA@/gc-n2.eventlog) && echo "follow waited"; ls
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
sort --check 1 0
info --json 1 41
stats --json 1 41
show --follow 1 0
stats --follow 1 0
monitor --once 1 0
merge log+pipe 1
fifo 1
follow waited
out
--- stderr
evtool cat: <stdin>: the file is empty: it holds no eventlog
evtool info: <stdin>: the file is empty: it holds no eventlog
evtool show: <stdin>: the file is empty: it holds no eventlog
evtool filter: <stdin>: the file is empty: it holds no eventlog
evtool stats: <stdin>: the file is empty: it holds no eventlog
evtool report: <stdin>: the file is empty: it holds no eventlog
evtool sort: <stdin>: the file is empty: it holds no eventlog
evtool merge: <stdin>: the file is empty: it holds no eventlog
evtool export: <stdin>: the file is empty: it holds no eventlog
evtool validate: <stdin>: the file is empty: it holds no eventlog
evtool truncate: <stdin>: the file is empty: it holds no eventlog
evtool archive: <stdin>: the file is empty: it holds no eventlog
evtool sort: <stdin>: the file is empty: it holds no eventlog
evtool info: <stdin>: the file is empty: it holds no eventlog
evtool stats: <stdin>: the file is empty: it holds no eventlog
evtool show: <stdin>: the file is empty: it holds no eventlog
evtool stats: <stdin>: the file is empty: it holds no eventlog
evtool monitor: <stdin>: the file is empty: it holds no eventlog
evtool merge: <stdin>: the file is empty: it holds no eventlog
evtool validate: f.fifo: the file is empty: it holds no eventlog
