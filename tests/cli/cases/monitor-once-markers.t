# monitor --once --max-markers 0: no marker counted; 1: one by name, the others as (other)
cmd: evtool monitor --once --max-markers 0 @DATA@/user-n1.eventlog | grep '^ghc_user_markers'; evtool monitor --once --max-markers 1 @DATA@/user-n1.eventlog | grep '^ghc_user_markers'
exit: 0
--- stdout
ghc_user_markers_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",marker="begin"} 1
ghc_user_markers_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",marker="(other)"} 6
--- stderr
