# info on a file that is not an eventlog: still described (status invalid, its stored size), the error on stderr, exit 1
cmd: printf 'root:x:0:0:root:/root:/bin/bash\n' > passwd; evtool info passwd | grep -E '^  (status|size) '
exit: 1
--- stdout
  status           invalid at offset 0: expected header begin "hdrb", found "root": not a GHC eventlog
  size             32 bytes stored, 0 bytes of log before the problem
--- stderr
evtool info: passwd: offset 0: expected header begin "hdrb", found "root": not a GHC eventlog
