# --in-place on a symbolic link repairs the file it points to and keeps the link
cmd: mkdir d && head -c 50000 @DATA@/threads-n4.eventlog > d/run.eventlog && ln -s d/run.eventlog link.eventlog && evtool truncate -q --in-place link.eventlog; echo "exit $?"; test -L link.eventlog && echo "still a link to $(readlink link.eventlog)"; ls -A . d; evtool validate --strict d/run.eventlog
exit: 0
--- stdout
exit 3
still a link to d/run.eventlog
.:
d
link.eventlog

d:
run.eventlog
d/run.eventlog: valid (0 warnings, 2839 events)
--- stderr
