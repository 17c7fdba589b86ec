# a warning (THREAD_RUNNABLE declared with 8 bytes: a newer layout?) passes, but not with --strict
cmd: cp @DATA@/user-n1.eventlog w.eventlog && chmod u+w w.eventlog && printf '\000\010' | dd of=w.eventlog bs=1 seek=108 conv=notrunc 2>/dev/null && evtool validate w.eventlog && evtool validate --strict w.eventlog
exit: 1
--- stdout
w.eventlog: valid (1 warning, 107 events)
w.eventlog: invalid with --strict (1 warning, 107 events)
--- stderr
evtool validate: w.eventlog: offset 102: warning: event type 3 (THREAD_RUNNABLE) is declared with 8 payload bytes, a size no GHC version used (largest known: 4); a newer layout? [type-size]
evtool validate: w.eventlog: offset 102: warning: event type 3 (THREAD_RUNNABLE) is declared with 8 payload bytes, a size no GHC version used (largest known: 4); a newer layout? [type-size]
