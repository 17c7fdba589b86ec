# evtool show < a and cat a | evtool show print what evtool show a prints
cmd: evtool show @DATA@/user-n1.eventlog > file.txt; evtool show < @DATA@/user-n1.eventlog | cmp - file.txt && cat @DATA@/user-n1.eventlog | evtool show | cmp - file.txt && evtool show - < @DATA@/user-n1.eventlog | cmp - file.txt && tail -n 3 file.txt
exit: 0
--- stdout
10235060: deleted capset 0
10235110: deleted capset 1

--- stderr
