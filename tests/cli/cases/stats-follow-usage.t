# stats --follow: --every needs --follow and a duration; --follow takes one log and text only
cmd: evtool stats --every 1s @DATA@/gc-n2.eventlog; evtool stats --follow --every 0 @DATA@/gc-n2.eventlog; evtool stats --follow --every 1x @DATA@/gc-n2.eventlog; evtool stats --follow a b; evtool stats --follow --json a; exit $?
exit: 2
--- stdout
--- stderr
evtool: --every is for --follow
Run 'evtool stats --help' for usage.
evtool: --every '0': not a duration above 0 (1s, 500ms, ...)
Run 'evtool stats --help' for usage.
evtool: --every '1x': not a duration above 0 (1s, 500ms, ...)
Run 'evtool stats --help' for usage.
evtool: --follow takes one log
Run 'evtool stats --help' for usage.
evtool: --follow prints text; --json and --fail-if are for complete logs
Run 'evtool stats --help' for usage.
