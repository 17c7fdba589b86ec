# a directory as input: every command refuses it before it prints anything, with one message naming the command and the directory (usage error, exit 2)
cmd: mkdir d; for c in cat info show filter stats report sort merge export validate truncate archive; do evtool $c d > out; echo "$c $? $(wc -c < out)"; done; evtool info < d; echo "stdin $?"
exit: 0
--- stdout
cat 2 0
info 2 0
show 2 0
filter 2 0
stats 2 0
report 2 0
sort 2 0
merge 2 0
export 2 0
validate 2 0
truncate 2 0
archive 2 0
stdin 2
--- stderr
evtool cat: d: is a directory, not a log
evtool info: d: is a directory, not a log
evtool show: d: is a directory, not a log
evtool filter: d: is a directory, not a log
evtool stats: d: is a directory, not a log
evtool report: d: is a directory, not a log
evtool sort: d: is a directory, not a log
evtool merge: d: is a directory, not a log
evtool export: d: is a directory, not a log
evtool validate: d: is a directory, not a log
evtool truncate: d: is a directory, not a log
evtool archive: d: is a directory, not a log
evtool info: <stdin>: is a directory, not a log
