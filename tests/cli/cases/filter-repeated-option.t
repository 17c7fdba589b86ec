# a repeated list option adds to its list, as ripgrep and curl take them: --class gc --class user is --class gc,user, and so for --exclude-cap, --redact and merge --shift; a repeated option of one value keeps the last (--from 1ms --from 2ms is --from 2ms)
cmd: log=@DATA@/user-n1.eventlog; evtool filter $log --class gc --class user -o a.eventlog && evtool filter $log --class gc,user -o b.eventlog && cmp a.eventlog b.eventlog && evtool info a.eventlog | grep '^  by class'; evtool filter $log --exclude-cap 0 --exclude-cap global --redact args --redact=env -o c.eventlog && evtool filter $log --exclude-cap 0,global --redact args,env -o d.eventlog && cmp c.eventlog d.eventlog && evtool info c.eventlog | grep -E '^  (program|events) '; evtool filter $log --from 1ms --from 2ms -o e.eventlog && evtool filter $log --from 2ms -o f.eventlog && cmp e.eventlog f.eventlog && echo 'last --from'; evtool merge --shift 1=1s --shift 2=-1ms @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o m1.eventlog && evtool merge --shift 1=1s,2=-1ms @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o m2.eventlog && cmp m1.eventlog m2.eventlog && echo 'shifts joined'; evtool merge --shift 1=1s --shift 1=2s @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o m3.eventlog; echo "exit $?"
exit: 0
--- stdout
  by class         scheduler 2 gc 17 user 31 meta 5 cap 10
  program          ./user <redacted> <redacted> <redacted> <redacted> <redacted> <redacted>
  events           18 in 2 blocks, 1 session
last --from
shifts joined
exit 2
--- stderr
evtool merge: --shift: input 1 is shifted twice
Run 'evtool merge --help' for usage.
