# stats --fail-if: when no condition holds, the exit is 0; _ and - alike in names
cmd: evtool stats @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog --fail-if 'gc_time>+0%' --fail-if 'max-pause > 50ms' --fail-if 'collections>=351' >/dev/null
exit: 0
--- stdout
--- stderr
