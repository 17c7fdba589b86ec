# a log killed before GHC wrote any event (header only): nothing to recover, exit 1, no output
cmd: evtool truncate @DATA@/killed-sigkill.eventlog -o out.eventlog; rc=$?; ls -A; exit $rc
exit: 1
--- stdout
--- stderr
evtool: @DATA@/killed-sigkill.eventlog: offset 2688: the log ends without the data-end marker (after 0 events)
evtool: @DATA@/killed-sigkill.eventlog: nothing to recover: not one complete event follows the header; no output written
