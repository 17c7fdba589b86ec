# info on gzip input reports the stored and the log size
cmd: gzip -c @DATA@/user-n1.eventlog > l.gz && evtool info l.gz | grep -E 'size|status'
exit: 0
--- stdout
  status           complete
  size             2196 bytes stored (gzip), 5298 bytes of log
