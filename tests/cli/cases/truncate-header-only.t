# a log killed before GHC wrote any event (complete header, no event): repaired to header + data end, which validates and holds no events; exit 3
cmd: evtool truncate @DATA@/killed-sigkill.eventlog -o out.eventlog; rc=$?; ls -A; cmp -n 2688 @DATA@/killed-sigkill.eventlog out.eventlog && tail -c 2 out.eventlog | od -An -tx1 && evtool validate --strict out.eventlog && exit $rc
exit: 3
--- stdout
out.eventlog
 ff ff
out.eventlog: valid (0 warnings, 0 events)
--- stderr
evtool truncate: @DATA@/killed-sigkill.eventlog: offset 2688: the log ends without the data-end marker (after 0 events)
evtool truncate: @DATA@/killed-sigkill.eventlog: kept 0 events in 0 blocks; no input bytes dropped
evtool truncate: @DATA@/killed-sigkill.eventlog: the repaired log holds no events: not one complete event follows the header
