# monitor --listen: a malformed address or port is a usage error
cmd: for a in 1.2.3:99 127.0.0.1:70000 example.com:80; do evtool monitor --listen $a .; echo "exit $?"; done
exit: 0
--- stdout
exit 2
exit 2
exit 2
--- stderr
evtool monitor: --listen 1.2.3:99: the address must be an IPv4 address, [IPv6] or localhost
Run 'evtool monitor --help' for usage.
evtool monitor: --listen 127.0.0.1:70000: the port must be a number from 0 to 65535
Run 'evtool monitor --help' for usage.
evtool monitor: --listen example.com:80: the address must be an IPv4 address, [IPv6] or localhost
Run 'evtool monitor --help' for usage.
