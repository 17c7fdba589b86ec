# with --strict, an input without a wall clock is an error naming it and the alternatives, and nothing is written
cmd: head -c 5417 @DATA@/merge-b.eventlog > killed.eventlog; evtool merge --strict @DATA@/merge-a.eventlog killed.eventlog -o out.eventlog; rc=$?; test ! -e out.eventlog && exit $rc
exit: 2
--- stdout
--- stderr
evtool merge: killed.eventlog: no WALL_CLOCK_TIME event, so its clock cannot be lined up with the others' by wall-clock time; align the inputs by their first events or not at all, and shift them by hand if needed
hint: --align start puts each input's first event at 0, --align none keeps the timestamps; --shift N=TIME moves input N by hand
