# stats --spans: START/STOP spans per name, sorted by total time, with
# per-name problems (a STOP without its START, a START never stopped)
cmd: evtool stats --spans @DATA@/spans-a.eventlog | sed -n '/Spans:/,$p'
exit: 0
--- stdout
  Spans: 17 measured

  name                      count     total   share      mean       p50       p90       p99       max
  outer                         1     105ms   68.5%     105ms     105ms     105ms     105ms     105ms
  sleep                         5     101ms   66.1%    20.2ms    20.2ms    20.4ms    20.4ms    20.4ms
  job                           3    30.4ms   19.9%    10.1ms    10.1ms    10.2ms    10.2ms    10.2ms
  nest                          2    9.36ms    6.1%    4.68ms    3.12ms    6.24ms    6.24ms    6.24ms
  b                             1    4.24ms    2.8%    4.24ms    4.24ms    4.24ms    4.24ms    4.24ms
  a                             1    4.24ms    2.8%    4.24ms    4.24ms    4.24ms    4.24ms    4.24ms
  work                          4    3.59ms    2.3%     896us     724us    1.45ms    1.45ms    1.45ms
  leak                          0       0ns    0.0%       0ns       0ns       0ns       0ns       0ns
    1 START never stopped
  orphan                        0       0ns    0.0%       0ns       0ns       0ns       0ns       0ns
    1 STOP without its START
