# stats on a log with no events (killed-sigkill repaired by truncate: a header and its data end) says so and exits 1, as for input it cannot summarise
cmd: evtool truncate -q @DATA@/killed-sigkill.eventlog -o e.eventlog; evtool stats e.eventlog; echo "exit $?"; evtool stats --json e.eventlog | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"])'
exit: 1
--- stdout
exit 1
[]
--- stderr
evtool stats: e.eventlog: the log holds no events: nothing to summarise
evtool stats: e.eventlog: the log holds no events: nothing to summarise
