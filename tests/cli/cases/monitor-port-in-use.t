# monitor on a port already in use: exit 4, the reason named
cmd: python3 -c 'import socket, subprocess, sys; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); sys.exit(subprocess.run(["evtool", "monitor", "--listen", "127.0.0.1:%d" % s.getsockname()[1], "."]).returncode)' 2>&1 | sed 's/port [0-9]*/port N/'; echo "exit ${PIPESTATUS[0]}"
exit: 0
--- stdout
evtool monitor: cannot listen on port N: Address already in use
exit 4
--- stderr
