# a log of another producer of the format (redeclare.py --mercury imitates the header Mercury's runtime writes: 39 its variable-size "Register an id->string mapping", declarations not in GHC's order) is judged as another producer's by validate (the declaration a warning), and so is its merge with itself, whose header is the union in ascending order; with a GHC log declaring 39 as SPARK_STEAL the merge is refused, naming both (exit 2); a fixed-size GHC type re-declared variable-size (user-n1's RUN_THREAD, which names a thread) is another producer's type: its events are copied as they are, not renumbered, so both copies hold the same payloads
cmd: python3 @CASES@/redeclare.py --mercury @DATA@/user-n1.eventlog mer.eventlog; evtool validate mer.eventlog; evtool merge --no-progress mer.eventlog mer.eventlog -o m.eventlog; evtool validate m.eventlog; evtool merge --no-progress mer.eventlog @DATA@/user-n1.eventlog -o x.eventlog; echo "exit $?"; python3 @CASES@/redeclare.py @DATA@/user-n1.eventlog r.eventlog 1 'Run context'; evtool merge --no-progress r.eventlog r.eventlog -o rr.eventlog; evtool validate rr.eventlog; evtool show --format ndjson rr.eventlog | python3 -c 'import json, sys, collections; c = {0: collections.Counter(), 1: collections.Counter()}; [c[e["cap"]].update([json.dumps(e["fields"])]) for e in map(json.loads, sys.stdin) if e["id"] == 1]; print("RUN_THREAD re-declared:", sum(c[0].values()), "and", sum(c[1].values()), "events, same payloads:", c[0] == c[1])'
exit: 0
--- stdout
mer.eventlog: valid (1 warning, 107 events)
m.eventlog: valid (1 warning, 214 events)
exit 2
rr.eventlog: valid (1 warning, 214 events)
RUN_THREAD re-declared: 11 and 11 events, same payloads: True
--- stderr
evtool validate: mer.eventlog: offset 1106: warning: event type 39 (SPARK_STEAL) is declared variable-size, but GHC writes it with a fixed size: another producer's type (as Mercury's 39), so findings about GHC's runtime are warnings [type-size]
evtool validate: m.eventlog: offset 1106: warning: event type 39 (SPARK_STEAL) is declared variable-size, but GHC writes it with a fixed size: another producer's type (as Mercury's 39), so findings about GHC's runtime are warnings [type-size]
evtool merge: event type 39 is another producer's variable-size type in mer.eventlog ("Register an id->string mapping"), GHC's fixed-size SPARK_STEAL in @DATA@/user-n1.eventlog: these logs cannot be merged
evtool validate: rr.eventlog: offset 41: warning: event type 1 (RUN_THREAD) is declared variable-size, but GHC writes it with a fixed size: another producer's type (as Mercury's 39), so findings about GHC's runtime are warnings [type-size]
