#!/usr/bin/env python3
"""Writes a recorded space with one defect, for the reader's refusals.

    corrupt-space.py SPACE.json duplicate|verdict|format|no-original > OUT.json
"""
import json
import sys

space = json.load(open(sys.argv[1]))
points = space["points"]
mode = sys.argv[2]
if mode == "duplicate":
    # The fastest point listed again, slower: which one is the truth?
    best = min((p for p in points if p["verdict"] == "verified"),
               key=lambda p: p["time_ms"])
    points.append(dict(best, time_ms=best["time_ms"] * 2))
elif mode == "verdict":
    points[1]["verdict"] = "fast"
elif mode == "format":
    space["format"] = "kernel tuner cache 1"
elif mode == "no-original":
    space["points"] = [p for p in points if p["config"]]
else:
    sys.exit("unknown mode " + mode)
json.dump(space, sys.stdout)
