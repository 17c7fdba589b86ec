# stats --spans --json: every figure of every span, per thread too
cmd: evtool stats --spans --json @DATA@/spans-a.eventlog | python3 -c 'import json,sys; s=json.load(sys.stdin)["files"][0]["spans"]; print(s["measured"], s["unmatched_stops"], s["unstopped"]); [print(x["name"], x["kind"], x["count"], len(x["threads"]), sorted(x)) for x in s["list"][:2]]'
exit: 0
--- stdout
17 1 1
outer span 1 1 ['count', 'first_ns', 'kind', 'max_ns', 'mean_ns', 'min_ns', 'name', 'other_threads_count', 'p50_ns', 'p90_ns', 'p99_ns', 'share', 'threads', 'total_ns', 'unmatched_stops', 'unstopped']
sleep span 5 1 ['count', 'first_ns', 'kind', 'max_ns', 'mean_ns', 'min_ns', 'name', 'other_threads_count', 'p50_ns', 'p90_ns', 'p99_ns', 'share', 'threads', 'total_ns', 'unmatched_stops', 'unstopped']
