# -o NAME.gz writes the export gzip-compressed (as -o NAME.gz writes a log; it wrote plain text under the .gz name), the same text as standard output; a cut input's .gz holds its complete events
cmd: evtool export --format hp @DATA@/hpt-n1.eventlog -o h.hp.gz && gzip -t h.hp.gz && evtool export --format hp @DATA@/hpt-n1.eventlog | cmp - <(gzip -dc h.hp.gz) && echo same; head -c 3000 @DATA@/user-n1.eventlog | evtool export -o cut.json.gz; echo "exit $?"; evtool export @DATA@/user-n1.eventlog | head -c 3 | cmp - <(gzip -dc cut.json.gz | head -c 3) && echo 'json in it'
exit: 0
--- stdout
same
exit 3
json in it
--- stderr
evtool export: <stdin>: offset 2990: the log ends inside an event (10 of 14 bytes present)
hint: 'evtool truncate' repairs a log whose program was killed; 'evtool cat --reblock' keeps its complete events
