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
          "slice": false,
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
          "alloc_rate": 1.44974837e+09
        }
      ]
    }
  ]
}
--- stderr
