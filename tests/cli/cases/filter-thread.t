# --thread keeps the events about a thread and its label
cmd: evtool filter @DATA@/threads-n1.eventlog --thread 5 --class s -o out.eventlog && evtool info out.eventlog | grep -E 'THREAD|LABEL'
exit: 0
--- stdout
    CREATE_THREAD                        0            1
    RUN_THREAD                           1          187
    STOP_THREAD                          2          187
    THREAD_WAKEUP                        8          185
    THREAD_LABEL                        44            1
--- stderr
