# --version names the library version
cmd: evtool --version
exit: 0
--- stdout
evtool 0.1.0
