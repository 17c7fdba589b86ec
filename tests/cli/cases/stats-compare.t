# stats A B: each figure of the base and the new run side by side, with its change
cmd: evtool stats @DATA@/threads-n2.eventlog @DATA@/threads-n4.eventlog
exit: 0
--- stdout
base: @DATA@/threads-n2.eventlog
new:  @DATA@/threads-n4.eventlog

  figure                           base                new    change
  elapsed                        30.2ms             40.2ms    +33.1%
  mut-time                       30.1ms             40.1ms    +33.2%
  gc-time                         122us              138us    +13.0%
  productivity                    99.6%              99.7%     +0.1%
  allocated                     271,448            317,312    +16.9%
  alloc-rate                9,014,672/s        7,912,812/s    -12.2%
  copied                         25,888             45,776    +76.8%
  max-live                       66,912             86,800    +29.7%
  max-mem                     3,145,728          5,242,880    +66.7%
  max-slop                       35,488             52,464    +47.8%
  collections                         1                  1     +0.0%
  major-collections                   1                  1     +0.0%
  max-pause                       122us              138us    +13.0%
  p50-pause                       122us              138us    +13.0%
  p90-pause                       122us              138us    +13.0%
  p99-pause                       122us              138us    +13.0%
--- stderr
