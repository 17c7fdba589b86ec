# a header that declares a GHC event id with another meaning (as Mercury's runtime declares its variable-size "Register an id->string mapping") is decoded by what the header says, as ghc-events does: user-n1's SPARK_COUNTERS (34) re-declared so by redeclare.py (the damage); show prints the header's description, NDJSON an unknown type, info counts it as unknown, validate reports only the declaration, as a warning (a declaration GHC never writes marks another producer's log: its findings about GHC's runtime are warnings); and id 38 itself (GHC's SPARK_RUN, the id Mercury redeclares) re-declared so: the header lists the description, 39 stays GHC's
cmd: python3 @CASES@/redeclare.py @DATA@/user-n1.eventlog m.eventlog 34 'Register an id->string mapping'; evtool show m.eventlog | grep -E '^34:|Register|spark stats'; evtool show --format ndjson m.eventlog | grep -m 1 '"id":34' | cut -c1-60; evtool info m.eventlog | grep -E ' 34 |by class'; python3 @CASES@/redeclare.py @DATA@/user-n1.eventlog m38.eventlog 38 'Register an id->string mapping'; evtool show m38.eventlog | grep -E '^3[89]:'; evtool validate m.eventlog
exit: 0
--- stdout
34: Register an id->string mapping (size variable)
204580: cap 0: Register an id->string mapping
3061050: cap 0: Register an id->string mapping
3110110: cap 0: Register an id->string mapping
{"time":204580,"cap":0,"type":null,"id":34,"fields":{"payloa
  by class         scheduler 41 gc 17 user 31 meta 5 cap 10 other 3
    UNKNOWN                             34            3
38: Register an id->string mapping (size variable)
39: Spark steal (size 2)
m.eventlog: valid (1 warning, 107 events)
--- stderr
evtool validate: m.eventlog: offset 948: warning: event type 34 (SPARK_COUNTERS) is declared variable-size, but GHC writes it with a fixed size: another producer's type (as Mercury's 39), so findings about GHC's runtime are warnings [type-size]
