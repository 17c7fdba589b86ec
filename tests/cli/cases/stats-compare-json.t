# stats A B --json --fail-if: the comparison and the conditions in the document; a failed one exits 1, named on stderr
cmd: evtool stats --json @DATA@/threads-n2.eventlog @DATA@/threads-n4.eventlog --fail-if 'gc-time>+10%' --fail-if 'max-pause>50ms' | sed -n '/"comparison"/,$p'; exit ${PIPESTATUS[0]}
exit: 1
--- stdout
  "comparison": [
    {
      "process": 0,
      "figures": [
        {
          "figure": "elapsed",
          "base": 30233538,
          "new": 40238578,
          "change": 0.330925213
        },
        {
          "figure": "mut-time",
          "base": 30111798,
          "new": 40101038,
          "change": 0.33173841
        },
        {
          "figure": "gc-time",
          "base": 121740,
          "new": 137540,
          "change": 0.129784787
        },
        {
          "figure": "productivity",
          "base": 0.995973346,
          "new": 0.996581887,
          "change": 0.000611001563
        },
        {
          "figure": "allocated",
          "base": 271448,
          "new": 317312,
          "change": 0.168960538
        },
        {
          "figure": "alloc-rate",
          "base": 9014672.59,
          "new": 7912812.63,
          "change": -0.122229615
        },
        {
          "figure": "copied",
          "base": 25888,
          "new": 45776,
          "change": 0.768232386
        },
        {
          "figure": "max-live",
          "base": 66912,
          "new": 86800,
          "change": 0.297226208
        },
        {
          "figure": "max-mem",
          "base": 3145728,
          "new": 5242880,
          "change": 0.666666667
        },
        {
          "figure": "max-slop",
          "base": 35488,
          "new": 52464,
          "change": 0.478358882
        },
        {
          "figure": "collections",
          "base": 1,
          "new": 1,
          "change": 0
        },
        {
          "figure": "major-collections",
          "base": 1,
          "new": 1,
          "change": 0
        },
        {
          "figure": "max-pause",
          "base": 121740,
          "new": 137540,
          "change": 0.129784787
        },
        {
          "figure": "p50-pause",
          "base": 121740,
          "new": 137540,
          "change": 0.129784787
        },
        {
          "figure": "p90-pause",
          "base": 121740,
          "new": 137540,
          "change": 0.129784787
        },
        {
          "figure": "p99-pause",
          "base": 121740,
          "new": 137540,
          "change": 0.129784787
        }
      ]
    }
  ],
  "conditions": [
    {
      "condition": "gc-time>+10%",
      "process": 0,
      "value": 137540,
      "base": 121740,
      "failed": true
    },
    {
      "condition": "max-pause>50ms",
      "process": 0,
      "value": 137540,
      "base": 121740,
      "failed": false
    }
  ]
}
--- stderr
evtool: @DATA@/threads-n4.eventlog: --fail-if 'gc-time>+10%' failed: gc-time is 138us, +13.0% of the base's 122us
