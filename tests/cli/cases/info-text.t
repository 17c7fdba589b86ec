# info on a real log: identity, caps, times, counts, digest
cmd: evtool info @DATA@/user-n1.eventlog
exit: 0
--- stdout
@DATA@/user-n1.eventlog
  status           complete
  rts              GHC-9.0.2 rts_thr_l
  program          ./user +RTS -l -oluser-n1.eventlog -suser-n1.rts-s.txt -N1 -RTS
  pid              8543 (parent 8542)
  wall clock       2026-11-22T03:25:56.141230310Z (time 0 of the log)
  capabilities     1: 0
  capsets          2: 0 (os-process), 1 (clock-domain)
  time             first 201820 ns, last 10235110 ns, duration 0.010033 s
  events           107 in 2 blocks, 1 session
  time inversions  1 (1 of them GC_END)
  size             5298 bytes
  xxh3-64          106a9cc9e1df0f7b
  by class         scheduler 41 gc 17 sparks-sampled 3 user 31 meta 5 cap 10
  by capability    0: 79 global 28
  by type
    CREATE_THREAD                        0            5
    RUN_THREAD                           1           11
    STOP_THREAD                          2           11
    GC_START                             9            1
    GC_END                              10            1
    REQUEST_SEQ_GC                      11            1
    USER_MSG                            19           24
    GC_IDLE                             20            3
    GC_WORK                             21            1
    GC_DONE                             22            3
    CAPSET_CREATE                       25            2
    CAPSET_DELETE                       26            2
    CAPSET_ASSIGN_CAP                   27            2
    CAPSET_REMOVE_CAP                   28            2
    RTS_IDENTIFIER                      29            1
    PROGRAM_ARGS                        30            1
    OSPROCESS_PID                       32            1
    OSPROCESS_PPID                      33            1
    SPARK_COUNTERS                      34            3
    WALL_CLOCK_TIME                     43            1
    THREAD_LABEL                        44            2
    CAP_CREATE                          45            1
    CAP_DELETE                          46            1
    HEAP_ALLOCATED                      49            2
    HEAP_SIZE                           50            1
    HEAP_LIVE                           51            1
    HEAP_INFO_GHC                       52            1
    GC_STATS_GHC                        53            1
    GC_GLOBAL_SYNC                      54            1
    TASK_CREATE                         55            6
    TASK_DELETE                         57            6
    USER_MARKER                         58            7
--- stderr
