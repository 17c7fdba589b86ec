# stats --json: one document, schema_version 1, a process per OS-process capset
cmd: evtool stats --json @DATA@/gc-n2.eventlog
exit: 0
--- stdout
{
  "schema_version": 1,
  "files": [
    {
      "file": "@DATA@/gc-n2.eventlog",
      "status": "complete",
      "unattributed_capabilities": 0,
      "processes": [
        {
          "capset": 0,
          "pid": 8534,
          "capabilities": 2,
          "heap_statistics": true,
          "allocated_bytes": 22861472,
          "copied_bytes": 21565664,
          "max_live_bytes": 2698472,
          "live_samples": 6,
          "max_slop_bytes": 39128,
          "max_mem_in_use_bytes": 7340032,
          "generations": [
            {
              "gen": 0,
              "collections": 344,
              "par_collections": 344,
              "elapsed_ns": 18231019,
              "avg_pause_ns": 52997,
              "max_pause_ns": 4940120,
              "max_slop_bytes": 84008
            },
            {
              "gen": 1,
              "collections": 6,
              "par_collections": 5,
              "elapsed_ns": 6216940,
              "avg_pause_ns": 1036156,
              "max_pause_ns": 4629700,
              "max_slop_bytes": 39128
            }
          ],
          "collections": 350,
          "untimed_collections": 0,
          "par_copied_bytes": 21539376,
          "par_balanced_copied_bytes": 3902864,
          "work_balance": 0.181196707,
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
          "end_ns": 40217228,
          "elapsed_ns": 40217228,
          "gc_elapsed_ns": 24447959,
          "mut_elapsed_ns": 15769269,
          "productivity": 0.392102335,
          "alloc_rate": 1.44974837e+09,
          "pauses": {
            "all": {
              "count": 350,
              "total_ns": 24447959,
              "min_ns": 9890,
              "p50_ns": 16895,
              "p90_ns": 24063,
              "p99_ns": 2602060,
              "max_ns": 4940120,
              "longest": [
                {
                  "start_ns": 29192728,
                  "duration_ns": 4940120,
                  "gen": 0,
                  "cap": 1
                },
                {
                  "start_ns": 13527239,
                  "duration_ns": 4629700,
                  "gen": 1,
                  "cap": 1
                },
                {
                  "start_ns": 23013499,
                  "duration_ns": 3142539,
                  "gen": 0,
                  "cap": 1
                },
                {
                  "start_ns": 19534849,
                  "duration_ns": 2602060,
                  "gen": 0,
                  "cap": 1
                },
                {
                  "start_ns": 27068998,
                  "duration_ns": 1566560,
                  "gen": 0,
                  "cap": 1
                },
                {
                  "start_ns": 9458669,
                  "duration_ns": 580150,
                  "gen": 1,
                  "cap": 1
                },
                {
                  "start_ns": 6564010,
                  "duration_ns": 403240,
                  "gen": 1,
                  "cap": 1
                },
                {
                  "start_ns": 4620860,
                  "duration_ns": 296260,
                  "gen": 1,
                  "cap": 1
                },
                {
                  "start_ns": 35511868,
                  "duration_ns": 222710,
                  "gen": 1,
                  "cap": 1
                },
                {
                  "start_ns": 2276610,
                  "duration_ns": 84880,
                  "gen": 1,
                  "cap": 1
                }
              ]
            },
            "generations": [
              {
                "gen": 0,
                "count": 344,
                "total_ns": 18231019,
                "min_ns": 9890,
                "p50_ns": 16895,
                "p90_ns": 23039,
                "p99_ns": 1566560,
                "max_ns": 4940120,
                "longest": [
                  {
                    "start_ns": 29192728,
                    "duration_ns": 4940120,
                    "gen": 0,
                    "cap": 1
                  },
                  {
                    "start_ns": 23013499,
                    "duration_ns": 3142539,
                    "gen": 0,
                    "cap": 1
                  },
                  {
                    "start_ns": 19534849,
                    "duration_ns": 2602060,
                    "gen": 0,
                    "cap": 1
                  },
                  {
                    "start_ns": 27068998,
                    "duration_ns": 1566560,
                    "gen": 0,
                    "cap": 1
                  },
                  {
                    "start_ns": 6112390,
                    "duration_ns": 58820,
                    "gen": 0,
                    "cap": 1
                  },
                  {
                    "start_ns": 2176020,
                    "duration_ns": 33790,
                    "gen": 0,
                    "cap": 1
                  },
                  {
                    "start_ns": 22950069,
                    "duration_ns": 32850,
                    "gen": 0,
                    "cap": 1
                  },
                  {
                    "start_ns": 9221829,
                    "duration_ns": 31830,
                    "gen": 0,
                    "cap": 1
                  },
                  {
                    "start_ns": 12229099,
                    "duration_ns": 30620,
                    "gen": 0,
                    "cap": 1
                  },
                  {
                    "start_ns": 2231440,
                    "duration_ns": 30390,
                    "gen": 0,
                    "cap": 1
                  }
                ]
              },
              {
                "gen": 1,
                "count": 6,
                "total_ns": 6216940,
                "min_ns": 84880,
                "p50_ns": 296260,
                "p90_ns": 4629700,
                "p99_ns": 4629700,
                "max_ns": 4629700,
                "longest": [
                  {
                    "start_ns": 13527239,
                    "duration_ns": 4629700,
                    "gen": 1,
                    "cap": 1
                  },
                  {
                    "start_ns": 9458669,
                    "duration_ns": 580150,
                    "gen": 1,
                    "cap": 1
                  },
                  {
                    "start_ns": 6564010,
                    "duration_ns": 403240,
                    "gen": 1,
                    "cap": 1
                  },
                  {
                    "start_ns": 4620860,
                    "duration_ns": 296260,
                    "gen": 1,
                    "cap": 1
                  },
                  {
                    "start_ns": 35511868,
                    "duration_ns": 222710,
                    "gen": 1,
                    "cap": 1
                  },
                  {
                    "start_ns": 2276610,
                    "duration_ns": 84880,
                    "gen": 1,
                    "cap": 1
                  }
                ]
              }
            ]
          },
          "figures": {
            "elapsed": 40217228,
            "mut-time": 15769269,
            "gc-time": 24447959,
            "productivity": 0.392102335,
            "allocated": 22861472,
            "alloc-rate": 1.44974837e+09,
            "copied": 21565664,
            "max-live": 2698472,
            "max-mem": 7340032,
            "max-slop": 39128,
            "collections": 350,
            "major-collections": 6,
            "max-pause": 4940120,
            "p50-pause": 16895,
            "p90-pause": 24063,
            "p99-pause": 2602060
          }
        }
      ]
    }
  ]
}
--- stderr
