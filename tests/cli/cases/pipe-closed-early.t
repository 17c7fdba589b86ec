# a reader that closes the pipe early (evtool show big | head -1): evtool dies of SIGPIPE as cat does, silently, 141 under pipefail; a temporary output file is removed when the signal comes from standard error
cmd: evtool cat @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog -o big.eventlog && set -o pipefail && evtool show big.eventlog 2>err | head -1; echo "show | head: $?"; evtool cat big.eventlog 2>>err | head -c 100 >/dev/null; echo "cat | head: $?"; wc -c < err; python3 -c 'import os, subprocess, sys; r, w = os.pipe(); os.close(r); print("merge -v, stderr closed:", subprocess.call(sys.argv[1:], stderr=w))' evtool merge -v @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o m.eventlog; ls -A
exit: 0
--- stdout
Event Types:
show | head: 141
cat | head: 141
0
merge -v, stderr closed: -13
big.eventlog
err
--- stderr
