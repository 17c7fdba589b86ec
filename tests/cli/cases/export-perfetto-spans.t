# export --format perfetto: the user's spans are slices "name" (category
# span) on a track per Haskell thread and name, "thread N: name"; per
# name, their count and total are those of stats --spans (the events are
# in time order here, the same pairs as in file order in this -N1 log)
cmd: evtool export --format perfetto @DATA@/spans-a.eventlog -o t.json && evtool stats --spans --json @DATA@/spans-a.eventlog > s.json && python3 -c 'import json,collections; d=json.load(open("t.json"))["traceEvents"]; s=json.load(open("s.json"))["files"][0]["spans"]["list"]; tracks={(e["pid"],e["tid"]):e["args"]["name"] for e in d if e.get("ph")=="M" and e.get("name")=="thread_name"}; got=collections.defaultdict(list); [got[e["name"]].append(round(e["dur"]*1000)) for e in d if e.get("cat")=="span" and tracks[(e["pid"],e["tid"])].endswith(": "+e["name"])]; [print(x["name"], len(got[x["name"]]) == x["count"], abs(sum(got[x["name"]]) - x["total_ns"]) <= len(got[x["name"]])) for x in s]; print(sorted(set(v.split(":")[1] for v in tracks.values() if v.startswith("thread "))))'
exit: 0
--- stdout
outer True True
sleep True True
job True True
nest True True
b True True
a True True
work True True
leak True True
orphan True True
[' a', ' b', ' job', ' nest', ' outer', ' sleep', ' work']
