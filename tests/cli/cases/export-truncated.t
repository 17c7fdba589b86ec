# a log cut short: the export of its complete events (valid JSON), then an
# error naming the file and offset, exit 3
cmd: head -c 40000 @DATA@/threads-n2.eventlog > cut.eventlog; evtool export cut.eventlog -o cut.json; rc=$?; python3 -c 'import json; print(len(json.load(open("cut.json"))["traceEvents"]) > 0)'; exit $rc
exit: 3
--- stdout
True
--- stderr
evtool export: cut.eventlog: offset 40000: the log ends without the data-end marker (after 2227 events)
hint: 'evtool truncate' repairs a log whose program was killed; 'evtool cat --reblock' keeps its complete events
