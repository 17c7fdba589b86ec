# a killed program's log is truncated, not invalid: exit 3, the offset of the last complete event and a hint
cmd: evtool validate @DATA@/killed-sigkill.eventlog
exit: 3
--- stdout
@DATA@/killed-sigkill.eventlog: truncated at offset 2688 (0 warnings, 0 events)
--- stderr
evtool validate: @DATA@/killed-sigkill.eventlog: offset 2688: error: the log ends without the data-end marker (after 0 events); the last complete event ends at offset 2688 [truncated]
hint: 'evtool truncate' repairs a log whose program was killed; 'evtool cat --reblock' keeps its complete events
