# info --json on two logs, one of them truncated
cmd: evtool info --json @DATA@/sparks-n2.eventlog @DATA@/killed-sigkill.eventlog
exit: 0
--- stdout
{
  "schema_version": 1,
  "files": [
    {
      "file": "@DATA@/sparks-n2.eventlog",
      "status": "complete",
      "rts": "GHC-9.0.2 rts_thr_l",
      "args": [
        "./sparks",
        "+RTS",
        "-l",
        "-olsparks-n2.eventlog",
        "-ssparks-n2.rts-s.txt",
        "-N2",
        "-RTS"
      ],
      "pid": 8525,
      "ppid": 8524,
      "wall_clock_start": "2026-11-22T03:25:56.074781990Z",
      "wall_clock_start_ns": 1795317956074781990,
      "wall_clock_start_ns_str": "1795317956074781990",
      "processes": [
        {
          "capset": 0,
          "session": 1,
          "rts": "GHC-9.0.2 rts_thr_l",
          "args": [
            "./sparks",
            "+RTS",
            "-l",
            "-olsparks-n2.eventlog",
            "-ssparks-n2.rts-s.txt",
            "-N2",
            "-RTS"
          ],
          "pid": 8525,
          "ppid": 8524,
          "wall_clock_start": "2026-11-22T03:25:56.074994180Z",
          "wall_clock_start_ns": 1795317956074994180,
          "wall_clock_start_ns_str": "1795317956074994180",
          "start_time_ns": 212190,
          "capabilities": [
            0,
            1
          ]
        }
      ],
      "capabilities": [
        0,
        1
      ],
      "capsets": [
        {
          "id": 0,
          "type": "os-process"
        },
        {
          "id": 1,
          "type": "clock-domain"
        }
      ],
      "first_time_ns": 212190,
      "last_time_ns": 20339039,
      "duration_ns": 20126849,
      "events": 229,
      "blocks": 3,
      "sessions": 1,
      "session_list": [
        {
          "session": 1,
          "offset": 0,
          "end": 7348,
          "events": 229,
          "status": "complete"
        }
      ],
      "log_bytes": 7348,
      "gzip": false,
      "stored_bytes": 7348,
      "xxh3_64": "b540660dd8b6df4b",
      "time_inversions": 5,
      "gc_end_inversions": 5,
      "events_by_class": {
        "scheduler": 93,
        "gc": 102,
        "sparks-sampled": 13,
        "meta": 5,
        "cap": 16
      },
      "events_by_cap": {
        "0": 74,
        "1": 117,
        "global": 38
      },
      "events_by_type": [
        {
          "id": 0,
          "name": "CREATE_THREAD",
          "count": 9
        },
        {
          "id": 1,
          "name": "RUN_THREAD",
          "count": 29
        },
        {
          "id": 2,
          "name": "STOP_THREAD",
          "count": 29
        },
        {
          "id": 4,
          "name": "MIGRATE_THREAD",
          "count": 2
        },
        {
          "id": 8,
          "name": "THREAD_WAKEUP",
          "count": 2
        },
        {
          "id": 9,
          "name": "GC_START",
          "count": 9
        },
        {
          "id": 10,
          "name": "GC_END",
          "count": 9
        },
        {
          "id": 11,
          "name": "REQUEST_SEQ_GC",
          "count": 1
        },
        {
          "id": 12,
          "name": "REQUEST_PAR_GC",
          "count": 4
        },
        {
          "id": 20,
          "name": "GC_IDLE",
          "count": 20
        },
        {
          "id": 21,
          "name": "GC_WORK",
          "count": 10
        },
        {
          "id": 22,
          "name": "GC_DONE",
          "count": 19
        },
        {
          "id": 25,
          "name": "CAPSET_CREATE",
          "count": 2
        },
        {
          "id": 26,
          "name": "CAPSET_DELETE",
          "count": 2
        },
        {
          "id": 27,
          "name": "CAPSET_ASSIGN_CAP",
          "count": 4
        },
        {
          "id": 28,
          "name": "CAPSET_REMOVE_CAP",
          "count": 4
        },
        {
          "id": 29,
          "name": "RTS_IDENTIFIER",
          "count": 1
        },
        {
          "id": 30,
          "name": "PROGRAM_ARGS",
          "count": 1
        },
        {
          "id": 32,
          "name": "OSPROCESS_PID",
          "count": 1
        },
        {
          "id": 33,
          "name": "OSPROCESS_PPID",
          "count": 1
        },
        {
          "id": 34,
          "name": "SPARK_COUNTERS",
          "count": 13
        },
        {
          "id": 43,
          "name": "WALL_CLOCK_TIME",
          "count": 1
        },
        {
          "id": 44,
          "name": "THREAD_LABEL",
          "count": 6
        },
        {
          "id": 45,
          "name": "CAP_CREATE",
          "count": 2
        },
        {
          "id": 46,
          "name": "CAP_DELETE",
          "count": 2
        },
        {
          "id": 49,
          "name": "HEAP_ALLOCATED",
          "count": 12
        },
        {
          "id": 50,
          "name": "HEAP_SIZE",
          "count": 5
        },
        {
          "id": 51,
          "name": "HEAP_LIVE",
          "count": 2
        },
        {
          "id": 52,
          "name": "HEAP_INFO_GHC",
          "count": 1
        },
        {
          "id": 53,
          "name": "GC_STATS_GHC",
          "count": 5
        },
        {
          "id": 54,
          "name": "GC_GLOBAL_SYNC",
          "count": 5
        },
        {
          "id": 55,
          "name": "TASK_CREATE",
          "count": 8
        },
        {
          "id": 57,
          "name": "TASK_DELETE",
          "count": 8
        }
      ]
    },
    {
      "file": "@DATA@/killed-sigkill.eventlog",
      "status": "truncated",
      "problem_offset": 2688,
      "problem": "the log ends without the data-end marker (after 0 events)",
      "rts": null,
      "args": [],
      "pid": null,
      "ppid": null,
      "wall_clock_start": null,
      "wall_clock_start_ns": null,
      "wall_clock_start_ns_str": null,
      "processes": [],
      "capabilities": [],
      "capsets": [],
      "first_time_ns": null,
      "last_time_ns": null,
      "duration_ns": null,
      "events": 0,
      "blocks": 0,
      "sessions": 1,
      "session_list": [
        {
          "session": 1,
          "offset": 0,
          "end": 2688,
          "events": 0,
          "status": "truncated"
        }
      ],
      "log_bytes": 2688,
      "gzip": false,
      "stored_bytes": 2688,
      "xxh3_64": "6a5bc26727b2666d",
      "time_inversions": 0,
      "gc_end_inversions": 0,
      "events_by_class": {},
      "events_by_cap": {},
      "events_by_type": []
    }
  ]
}
--- stderr
