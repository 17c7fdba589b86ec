# stats --fail-if: a bad condition is a usage error naming what is wrong; a change in % needs two logs
cmd: evtool stats @DATA@/gc-n2.eventlog --fail-if 'gc-time>+10%'; evtool stats @DATA@/gc-n2.eventlog --fail-if 'pause>1ms'; evtool stats @DATA@/gc-n2.eventlog --fail-if 'max-pause>50'; evtool stats @DATA@/gc-n2.eventlog --fail-if 'max-pause=50ms'; evtool stats a b c --fail-if 'gc-time>1s'; exit $?
exit: 2
--- stdout
--- stderr
evtool: --fail-if 'gc-time>+10%': a change in % needs two logs, base and new
Run 'evtool stats --help' for usage.
evtool: --fail-if 'pause>1ms': no figure named 'pause'
Run 'evtool stats --help' for usage.
evtool: --fail-if 'max-pause>50': the value of max-pause is a time with a unit (ns, us, ms, s), or +N% or -N% of the base run
Run 'evtool stats --help' for usage.
evtool: --fail-if 'max-pause=50ms': not FIGURE<VALUE, FIGURE>VALUE, FIGURE<=VALUE or FIGURE>=VALUE
Run 'evtool stats --help' for usage.
evtool: --fail-if takes one log, or two (base and new)
Run 'evtool stats --help' for usage.
