#!/usr/bin/env python3
"""Summary of a speedscope export against `evtool show --format ndjson` of
the same log, for the golden test export-speedscope.

usage: speedscope_summary.py EXPORT.json SHOW.ndjson"""
import json
import sys

d = json.load(open(sys.argv[1]))
ev = [json.loads(line) for line in open(sys.argv[2])]
samples = [e for e in ev if e["type"] == "PROF_SAMPLE_COST_CENTRE"]
ccs = [e for e in ev if e["type"] == "HEAP_PROF_COST_CENTRE"]
tick = [e for e in ev if e["type"] == "PROF_BEGIN"][0]["fields"]["tick_interval"]
print([p["name"] for p in d["profiles"]], d["profiles"][0]["unit"])
print("samples:", sum(len(p["samples"]) for p in d["profiles"]) == len(samples))
for p in d["profiles"]:
    cap = int(p["name"].split()[-1])
    mine = [e for e in samples if e["fields"]["capability"] == cap]
    # Each sample's stack, root first, names the cost centres the event
    # lists innermost first.
    names = [[d["shared"]["frames"][i]["name"] for i in s] for s in p["samples"]]
    byid = {e["fields"]["cost_centre"]: e["fields"]["module"] + "." + e["fields"]["label"]
            for e in ccs}
    want = [[byid[i] for i in reversed(e["fields"]["stack"])] for e in mine]
    print(p["name"], "stacks as the events:", names == want)
print("frames:", len(d["shared"]["frames"]) == len(ccs))
print("weights:", all(w == tick for p in d["profiles"] for w in p["weights"]))
