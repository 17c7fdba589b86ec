# stats --spans=markers: spans between consecutive markers of one name;
# --spans=all: both kinds; a word it does not take is a usage error
cmd: evtool stats --spans=markers @DATA@/spans-a.eventlog | sed -n '/Spans:/,$p'; evtool stats --spans=all @DATA@/spans-a.eventlog | grep -c '^  [a-z]'; evtool stats --spans=marker @DATA@/spans-a.eventlog
exit: 2
--- stdout
  Spans: 4 measured

  name                      count     total   share      mean       p50       p90       p99       max
  frame (marker)                4    21.2ms   13.8%    5.30ms    5.12ms    5.83ms    5.83ms    5.83ms
12
--- stderr
evtool stats: --spans: 'marker' is not events, markers or all
hint: did you mean 'markers'?
Run 'evtool stats --help' for usage.
