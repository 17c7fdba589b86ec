# with --strict, inputs that declare a type with different sizes --widen converts are an error naming both and pointing at --widen, and nothing is written (merge-b with NONMOVING_HEAP_CENSUS, never emitted, declared with GHC 9.10's 14 bytes)
cmd: cp @DATA@/merge-a.eventlog a.eventlog && python3 -c "import sys;d=open(sys.argv[1],'rb').read();i=d.index(b'etb\0\x00\xcf\x00\x0d');open('b14.eventlog','wb').write(d[:i+6]+b'\x00\x0e'+d[i+8:])" @DATA@/merge-b.eventlog && evtool merge --strict a.eventlog b14.eventlog -o out.eventlog; rc=$?; test ! -e out.eventlog && exit $rc
exit: 2
--- stdout
--- stderr
evtool merge: event type 207 (NONMOVING_HEAP_CENSUS) has 13-byte payloads in a.eventlog but 14-byte payloads in b14.eventlog
hint: --widen declares the larger size and converts the shorter events
