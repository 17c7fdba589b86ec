# monitor on a non-loopback address: a warning; SIGTERM ends it, exit 0
cmd: evtool monitor --listen 0.0.0.0:0 . 2> err.txt & sleep 0.5; kill -TERM $!; wait $!; echo "exit $?"; sed 's/:[0-9]*\/metrics/:PORT\/metrics/' err.txt
exit: 0
--- stdout
exit 0
evtool monitor: --listen 0.0.0.0:0: warning: not a loopback address: every machine that reaches it can read the pages
evtool monitor: serving http://0.0.0.0:PORT/metrics
--- stderr
