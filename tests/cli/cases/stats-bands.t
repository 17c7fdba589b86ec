# stats A B with heap profiles: per band, peak and mean residency in both
# runs and their change, the largest change of peak first, --top of them
# and the rest summed. heapdiff b keeps 20,000 boxed Doubles that a never
# makes: a new band of 320,000 bytes (16 each) by closure type (D#) and
# by type (Double), of 800,000 bytes (with the list's cells) by cost
# centre (extraDoubles)
cmd: for h in hT hy hc; do evtool stats @DATA@/heapdiff-a-$h.eventlog @DATA@/heapdiff-b-$h.eventlog --top 3 | sed -n '/heap profile/,$p' | cut -c1-72; done
exit: 0
--- stdout
  heap profile by -hT: 36 bands, the 3 with the largest change of peak
  band                                base peak     new peak   change   
  ghc-prim:GHC.Types.:                1,816,368    2,428,056   +33.7%   
  ghc-prim:GHC.Types.D#                       -      320,000      new   
  containers-0.6.4.1:Data.Map.Inte    1,267,200    1,360,224    +7.3%   
  (33 more bands)                       468,416      499,408    +6.6%   
  heap profile by -hy: 42 bands, the 3 with the largest change of peak
  band                                base peak     new peak   change   
  []                                  1,105,880    1,801,440   +62.9%   
  Double                                      -      320,000      new   
  Map                                   773,328      921,600   +19.2%   
  (39 more bands)                       268,520      381,048   +41.9%   
  heap profile by -hc: 9 bands, the 3 with the largest change of peak
  band                                base peak     new peak   change   
  extraDoubles/main.ds/...                    -      800,000      new   
  buildMap.\/buildMap/m...            3,512,344    3,122,520   -11.1%   
  GHC.Conc.Signal.CAF                       640          640    +0.0%   
  (6 more bands)                         11,592       11,592    +0.0%   
