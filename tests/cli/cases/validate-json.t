# --json: one document (schema_version 1) with every finding (its event, when there is one) and a verdict per file
cmd: cat @DATA@/user-n1.eventlog > bad.eventlog && printf 'garbage' >> bad.eventlog && cp @DATA@/user-n1.eventlog t.eventlog && chmod u+w t.eventlog && printf '\000\000\000\000\000\052\241\336' | dd of=t.eventlog bs=1 seek=3133 conv=notrunc 2>/dev/null && evtool validate --json @DATA@/user-n1.eventlog bad.eventlog t.eventlog @DATA@/killed-sigkill.eventlog
exit: 1
--- stdout
{
  "schema_version": 2,
  "strict": false,
  "files": [
    {
      "file": "@DATA@/user-n1.eventlog",
      "findings": [],
      "verdict": "complete",
      "valid": true,
      "errors": 0,
      "warnings": 0,
      "events": 107,
      "blocks": 2,
      "sessions": 1,
      "last_complete_offset": 5298,
      "stopped": false,
      "exit_code": 0
    },
    {
      "file": "bad.eventlog",
      "findings": [
        {
          "severity": "error",
          "check": "trailing-data",
          "offset": 5298,
          "session": 1,
          "event": null,
          "message": "unexpected bytes after the data-end marker"
        }
      ],
      "verdict": "invalid",
      "valid": false,
      "errors": 1,
      "warnings": 0,
      "events": 107,
      "blocks": 2,
      "sessions": 1,
      "last_complete_offset": 5298,
      "stopped": false,
      "exit_code": 1
    },
    {
      "file": "t.eventlog",
      "findings": [
        {
          "severity": "error",
          "check": "time-order",
          "offset": 3131,
          "session": 1,
          "event": {
            "index": 22,
            "type": 19,
            "name": "USER_MSG",
            "cap": 0,
            "time_ns": 2793950
          },
          "message": "time goes back by 1000 ns: an earlier event of this cap is at 2794950 ns"
        }
      ],
      "verdict": "invalid",
      "valid": false,
      "errors": 1,
      "warnings": 0,
      "events": 107,
      "blocks": 2,
      "sessions": 1,
      "last_complete_offset": 5298,
      "stopped": false,
      "exit_code": 1
    },
    {
      "file": "@DATA@/killed-sigkill.eventlog",
      "findings": [
        {
          "severity": "error",
          "check": "truncated",
          "offset": 2688,
          "session": 1,
          "event": null,
          "message": "the log ends without the data-end marker (after 0 events); the last complete event ends at offset 2688"
        }
      ],
      "verdict": "truncated",
      "valid": false,
      "errors": 1,
      "warnings": 0,
      "events": 0,
      "blocks": 0,
      "sessions": 1,
      "last_complete_offset": 2688,
      "stopped": false,
      "exit_code": 3
    }
  ],
  "exit_code": 1
}
--- stderr
