# --version names the library version and the commit built from (12 hex digits of git's HEAD, -dirty with uncommitted changes; "unknown" outside git)
cmd: evtool --version | sed -E 's/\(commit ([0-9a-f]{12}(-dirty)?|unknown)\)$/(commit C)/'
exit: 0
--- stdout
evtool 0.1.0 (commit C)
