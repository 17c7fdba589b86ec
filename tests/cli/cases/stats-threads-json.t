# stats --json --threads --caps: the threads (total, others, list) and capabilities objects
cmd: evtool stats --json --threads --caps @DATA@/threads-n2.eventlog
exit: 0
--- stdout
{
  "schema_version": 1,
  "files": [
    {
      "file": "@DATA@/threads-n2.eventlog",
      "status": "complete",
      "unattributed_capabilities": 0,
      "processes": [
        {
          "capset": 0,
          "pid": 8499,
          "capabilities": 2,
          "slice": false,
          "heap_statistics": true,
          "allocated_bytes": 271448,
          "copied_bytes": 25888,
          "max_live_bytes": 66912,
          "live_samples": 1,
          "max_slop_bytes": 35488,
          "max_mem_in_use_bytes": 3145728,
          "generations": [
            {
              "gen": 0,
              "collections": 0,
              "par_collections": 0,
              "elapsed_ns": 0,
              "avg_pause_ns": 0,
              "max_pause_ns": 0,
              "max_slop_bytes": 0
            },
            {
              "gen": 1,
              "collections": 1,
              "par_collections": 0,
              "elapsed_ns": 121740,
              "avg_pause_ns": 121740,
              "max_pause_ns": 121740,
              "max_slop_bytes": 35488
            }
          ],
          "collections": 1,
          "untimed_collections": 0,
          "par_copied_bytes": 0,
          "par_balanced_copied_bytes": 0,
          "work_balance": null,
          "sparks": {
            "total": 0,
            "created": 0,
            "converted": 0,
            "overflowed": 0,
            "dud": 0,
            "gcd": 0,
            "fizzled": 0
          },
          "start_ns": 0,
          "end_ns": 30233538,
          "elapsed_ns": 30233538,
          "gc_elapsed_ns": 121740,
          "mut_elapsed_ns": 30111798,
          "productivity": 0.995973346,
          "alloc_rate": 9014672.59,
          "pauses": {
            "all": {
              "count": 1,
              "total_ns": 121740,
              "min_ns": 121740,
              "p50_ns": 121740,
              "p90_ns": 121740,
              "p99_ns": 121740,
              "max_ns": 121740,
              "longest": [
                {
                  "start_ns": 28301828,
                  "duration_ns": 121740,
                  "gen": 1,
                  "cap": 1
                }
              ]
            },
            "generations": [
              {
                "gen": 1,
                "count": 1,
                "total_ns": 121740,
                "min_ns": 121740,
                "p50_ns": 121740,
                "p90_ns": 121740,
                "p99_ns": 121740,
                "max_ns": 121740,
                "longest": [
                  {
                    "start_ns": 28301828,
                    "duration_ns": 121740,
                    "gen": 1,
                    "cap": 1
                  }
                ]
              }
            ]
          },
          "figures": {
            "elapsed": 30233538,
            "mut-time": 30111798,
            "gc-time": 121740,
            "productivity": 0.995973346,
            "allocated": 271448,
            "alloc-rate": 9014672.59,
            "copied": 25888,
            "max-live": 66912,
            "max-mem": 3145728,
            "max-slop": 35488,
            "collections": 1,
            "major-collections": 1,
            "max-pause": 121740,
            "p50-pause": 121740,
            "p90-pause": 121740,
            "p99-pause": 121740
          }
        }
      ],
      "threads": {
        "count": 11,
        "total": {
          "thread": 0,
          "label": null,
          "runs": 1327,
          "run_ns": 10675289,
          "migrations": 12,
          "stops": 1327,
          "stop_reasons": [
            {
              "status": 2,
              "reason": "stack overflow",
              "count": 1
            },
            {
              "status": 3,
              "reason": "thread yielding",
              "count": 19
            },
            {
              "status": 5,
              "reason": "thread finished",
              "count": 11
            },
            {
              "status": 6,
              "reason": "making a foreign call",
              "count": 20
            },
            {
              "status": 7,
              "reason": "blocked on an MVar",
              "count": 1276
            }
          ]
        },
        "others": null,
        "list": [
          {
            "thread": 7,
            "label": "stage-1",
            "runs": 251,
            "run_ns": 5103529,
            "migrations": 1,
            "stops": 251,
            "stop_reasons": [
              {
                "status": 3,
                "reason": "thread yielding",
                "count": 5
              },
              {
                "status": 5,
                "reason": "thread finished",
                "count": 1
              },
              {
                "status": 7,
                "reason": "blocked on an MVar",
                "count": 245
              }
            ]
          },
          {
            "thread": 6,
            "label": "stage-0",
            "runs": 235,
            "run_ns": 3091040,
            "migrations": 1,
            "stops": 235,
            "stop_reasons": [
              {
                "status": 3,
                "reason": "thread yielding",
                "count": 1
              },
              {
                "status": 5,
                "reason": "thread finished",
                "count": 1
              },
              {
                "status": 7,
                "reason": "blocked on an MVar",
                "count": 233
              }
            ]
          },
          {
            "thread": 8,
            "label": "stage-2",
            "runs": 254,
            "run_ns": 1970540,
            "migrations": 2,
            "stops": 254,
            "stop_reasons": [
              {
                "status": 3,
                "reason": "thread yielding",
                "count": 4
              },
              {
                "status": 5,
                "reason": "thread finished",
                "count": 1
              },
              {
                "status": 7,
                "reason": "blocked on an MVar",
                "count": 249
              }
            ]
          },
          {
            "thread": 10,
            "label": "sink",
            "runs": 152,
            "run_ns": 185650,
            "migrations": 2,
            "stops": 152,
            "stop_reasons": [
              {
                "status": 5,
                "reason": "thread finished",
                "count": 1
              },
              {
                "status": 7,
                "reason": "blocked on an MVar",
                "count": 151
              }
            ]
          },
          {
            "thread": 1,
            "label": null,
            "runs": 4,
            "run_ns": 96280,
            "migrations": 1,
            "stops": 4,
            "stop_reasons": [
              {
                "status": 3,
                "reason": "thread yielding",
                "count": 3
              },
              {
                "status": 5,
                "reason": "thread finished",
                "count": 1
              }
            ]
          },
          {
            "thread": 5,
            "label": "main",
            "runs": 158,
            "run_ns": 93070,
            "migrations": 1,
            "stops": 158,
            "stop_reasons": [
              {
                "status": 2,
                "reason": "stack overflow",
                "count": 1
              },
              {
                "status": 3,
                "reason": "thread yielding",
                "count": 2
              },
              {
                "status": 5,
                "reason": "thread finished",
                "count": 1
              },
              {
                "status": 7,
                "reason": "blocked on an MVar",
                "count": 154
              }
            ]
          },
          {
            "thread": 9,
            "label": "stage-3",
            "runs": 246,
            "run_ns": 41640,
            "migrations": 2,
            "stops": 246,
            "stop_reasons": [
              {
                "status": 3,
                "reason": "thread yielding",
                "count": 1
              },
              {
                "status": 5,
                "reason": "thread finished",
                "count": 1
              },
              {
                "status": 7,
                "reason": "blocked on an MVar",
                "count": 244
              }
            ]
          },
          {
            "thread": 4,
            "label": "TimerManager",
            "runs": 19,
            "run_ns": 35430,
            "migrations": 2,
            "stops": 19,
            "stop_reasons": [
              {
                "status": 3,
                "reason": "thread yielding",
                "count": 1
              },
              {
                "status": 5,
                "reason": "thread finished",
                "count": 1
              },
              {
                "status": 6,
                "reason": "making a foreign call",
                "count": 17
              }
            ]
          },
          {
            "thread": 2,
            "label": "IOManager on cap 0",
            "runs": 3,
            "run_ns": 25130,
            "migrations": 0,
            "stops": 3,
            "stop_reasons": [
              {
                "status": 3,
                "reason": "thread yielding",
                "count": 1
              },
              {
                "status": 5,
                "reason": "thread finished",
                "count": 1
              },
              {
                "status": 6,
                "reason": "making a foreign call",
                "count": 1
              }
            ]
          },
          {
            "thread": 3,
            "label": "IOManager on cap 1",
            "runs": 3,
            "run_ns": 25120,
            "migrations": 0,
            "stops": 3,
            "stop_reasons": [
              {
                "status": 3,
                "reason": "thread yielding",
                "count": 1
              },
              {
                "status": 5,
                "reason": "thread finished",
                "count": 1
              },
              {
                "status": 6,
                "reason": "making a foreign call",
                "count": 1
              }
            ]
          },
          {
            "thread": 11,
            "label": null,
            "runs": 2,
            "run_ns": 7860,
            "migrations": 0,
            "stops": 2,
            "stop_reasons": [
              {
                "status": 5,
                "reason": "thread finished",
                "count": 1
              },
              {
                "status": 6,
                "reason": "making a foreign call",
                "count": 1
              }
            ]
          }
        ]
      },
      "capabilities": [
        {
          "cap": 0,
          "capset": 0,
          "span_ns": 30233538,
          "mutator_ns": 5362940,
          "gc_ns": 0,
          "idle_ns": 24870598,
          "runs": 690,
          "migrations_out": 8,
          "migrations_in": 4
        },
        {
          "cap": 1,
          "capset": 0,
          "span_ns": 30233538,
          "mutator_ns": 5312349,
          "gc_ns": 121740,
          "idle_ns": 24799449,
          "runs": 637,
          "migrations_out": 4,
          "migrations_in": 8
        }
      ]
    }
  ]
}
--- stderr
