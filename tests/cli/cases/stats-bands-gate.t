# --fail-if on a band: its peak or mean, absolute or against the base
# run; a band new in the run has no base and fails a relative condition;
# --json lists the bands with their status
cmd: A=@DATA@/heapdiff-a-hT.eventlog B=@DATA@/heapdiff-b-hT.eventlog; evtool stats $A $B --fail-if 'band:ghc-prim:GHC.Types.:.peak>+20%' >/dev/null; echo "exit $?"; evtool stats $A $B --fail-if 'band:ghc-prim:GHC.Types.:.peak>+50%' --fail-if 'band:ARR_WORDS.mean>1KB' >/dev/null; echo "exit $?"; evtool stats $A $B --fail-if 'band:ghc-prim:GHC.Types.D#.peak>+10%' >/dev/null; echo "exit $?"; evtool stats $A $B --fail-if 'band:ghc-prim:GHC.Types.D#.peak>=300KB' >/dev/null; echo "exit $?"; evtool stats --json $A $B --top 2 | python3 -c 'import json,sys; h=json.load(sys.stdin)["heap_bands"]; print(h["breakdown"], h["bands"], [(b["band"], b["status"], b["new_peak_bytes"]) for b in h["list"]], h["rest_bands"])'
exit: 0
--- stdout
exit 1
exit 0
exit 1
exit 1
T 36 [('ghc-prim:GHC.Types.:', 'both', 2428056), ('ghc-prim:GHC.Types.D#', 'new', 320000)] 34
--- stderr
evtool stats: @DATA@/heapdiff-b-hT.eventlog: --fail-if 'band:ghc-prim:GHC.Types.:.peak>+20%' failed: band:ghc-prim:GHC.Types.:.peak is 2,428,056, +33.7% of the base's 1,816,368
evtool stats: @DATA@/heapdiff-b-hT.eventlog: --fail-if 'band:ghc-prim:GHC.Types.D#.peak>+10%' failed: band:ghc-prim:GHC.Types.D#.peak is 320,000, and the base run has none
evtool stats: @DATA@/heapdiff-b-hT.eventlog: --fail-if 'band:ghc-prim:GHC.Types.D#.peak>=300KB' failed: band:ghc-prim:GHC.Types.D#.peak is 320,000
