# monitor --max-sources: more sources than allowed is a usage error
cmd: mkfifo a b; evtool monitor --max-sources 1 a b
exit: 2
--- stdout
--- stderr
evtool monitor: more than 1 sources (--max-sources)
