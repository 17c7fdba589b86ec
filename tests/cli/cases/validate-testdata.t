# every complete log in testdata validates, and the killed ones are truncated (exit 3)
cmd: evtool validate -q $(ls @DATA@/*.eventlog | grep -v killed) && evtool validate -q @DATA@/killed-*.eventlog*
exit: 3
--- stdout
--- stderr
