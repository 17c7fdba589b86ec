# zcat a.gz | evtool info: a log of a killed program arriving on standard input, named <stdin>
cmd: zcat @DATA@/killed-blocks.eventlog.gz | evtool info > piped.txt; echo "${PIPESTATUS[*]}"; head -n 2 piped.txt; zcat @DATA@/killed-blocks.eventlog.gz > k.eventlog && evtool info k.eventlog | tail -n +2 | diff - <(tail -n +2 piped.txt) && echo same
exit: 0
--- stdout
0 0
<stdin>
  status           truncated at offset 8389320: the log ends without the data-end marker (after 12921 events)
same
--- stderr
