# text outputs are allowed on a terminal (on_tty.py), as jq's are: show, info, stats, validate and export's JSON and .hp print there, exit 0; only logs are refused (pipe-terminal)
cmd: for c in "show @DATA@/user-n1.eventlog" "info @DATA@/user-n1.eventlog" "stats @DATA@/user-n1.eventlog" "validate @DATA@/user-n1.eventlog" "export @DATA@/user-n1.eventlog" "export --format hp @DATA@/hpt-n1.eventlog"; do python3 @CASES@/../on_tty.py evtool $c > out.txt; echo "$? $(wc -l < out.txt) lines: $(head -c 60 out.txt | tr -d '\r\n' | sed "s|@DATA@/||" | cut -c1-20)"; done
exit: 0
--- stdout
0 184 lines: Event Types:0: Creat
0 48 lines: user-n1.eventlog  st
0 27 lines: user-n1.eventlog: pr
0 1 lines: user-n1.eventlog: va
0 60 lines: {"displayTimeUnit":"
0 783 lines: JOB "./heap +RTS -l 
