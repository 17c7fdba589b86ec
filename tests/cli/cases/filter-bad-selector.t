# a selector item that is not a class is a usage error naming it
cmd: evtool filter @DATA@/user-n1.eventlog --class gc,gcc -o out.eventlog; rc=$?; ls; exit $rc
exit: 2
--- stdout
--- stderr
evtool filter: --class: 'gcc' is not an event class (RTS letters s g p f u n T, or scheduler, gc, sparks, user, nonmoving, ticky, heap-profile, time-profile, meta, cap, debug, other)
Run 'evtool filter --help' for usage.
