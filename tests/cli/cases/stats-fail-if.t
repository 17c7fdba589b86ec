# stats --fail-if on one log: absolute conditions; each that holds is named and the exit is 1
cmd: evtool stats @DATA@/gc-n2.eventlog --fail-if 'max-pause>4ms' --fail-if 'p50-pause>=1ms' --fail-if 'productivity<50%' --fail-if 'max-live>2MiB' >/dev/null
exit: 1
--- stdout
--- stderr
evtool: @DATA@/gc-n2.eventlog: --fail-if 'max-pause>4ms' failed: max-pause is 4.94ms
evtool: @DATA@/gc-n2.eventlog: --fail-if 'productivity<50%' failed: productivity is 39.2%
evtool: @DATA@/gc-n2.eventlog: --fail-if 'max-live>2MiB' failed: max-live is 2,698,472
