#!/usr/bin/env python3
"""Summary of a perfetto export against `evtool show` of the same log, for
the golden test export-perfetto: slices against the events they come from.

usage: perfetto_summary.py EXPORT.json SHOW.txt"""
import json
import re
import sys

ev = json.load(open(sys.argv[1]))["traceEvents"]
show = open(sys.argv[2]).read()
threads = [e for e in ev if e["ph"] == "X" and e["cat"] == "thread"]
gcs = [e for e in ev if e["ph"] == "X" and e["name"] == "GC"]
print("thread slices = stops:",
      len(threads) == len(re.findall(r": stopping thread", show)))
print("GC slices = GC starts:",
      len(gcs) == len(re.findall(r": starting GC", show)))
labels = set(re.findall(r"thread \d+ has label \"(.*)\"", show))
named = {e["name"] for e in threads if not re.fullmatch(r"thread \d+", e["name"])}
print("named slices = labels:", named == labels, sorted(named))
print("tracks:", sorted(e["args"]["name"] for e in ev
                        if e["ph"] == "M" and e["name"] == "thread_name"))
