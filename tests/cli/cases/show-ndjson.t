# --format ndjson: one JSON object per event, fields by name
cmd: evtool show --format ndjson @DATA@/user-n1.eventlog > out.json && grep -m 4 -E 'BLOCK|USER_M|STOP_THREAD|ARGS' out.json
exit: 0
--- stdout
{"time":129470,"cap":null,"type":"BLOCK_MARKER","id":18,"fields":{"size":673,"end_time":10246800,"cap":65535}}
{"time":129570,"cap":0,"type":"BLOCK_MARKER","id":18,"fields":{"size":1935,"end_time":10240830,"cap":0}}
{"time":214220,"cap":null,"type":"PROGRAM_ARGS","id":30,"fields":{"capset":0,"args":["./user","+RTS","-l","-oluser-n1.eventlog","-suser-n1.rts-s.txt","-N1","-RTS"]}}
{"time":332240,"cap":0,"type":"STOP_THREAD","id":2,"fields":{"thread":1,"status":3,"status_name":"ThreadYielding","info":0}}
--- stderr
