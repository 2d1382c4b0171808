#!/usr/bin/env python3
"""check-run.py RESULT.json BUDGET: the invariants of every --simulate run
with a budget below the space's size: it spent exactly the budget, never
evaluated a point twice, and never evaluated an invalid point."""
import json, sys
d = json.load(open(sys.argv[1]))
budget = int(sys.argv[2])
keys = [json.dumps(m["config"], sort_keys=True) for m in d["moves"]]
assert d["evaluations"] == budget, d["evaluations"]
assert len(set(keys)) == budget, "a point was evaluated twice"
assert d["stop_reason"] == "budget", d["stop_reason"]
assert all(m["verdict"] != "invalid" for m in d["moves"])
assert d["moves"][0]["config"] == {} and d["moves"][0]["move"] == "baseline"
best = min(m["time_ms"] for m in d["moves"] if "time_ms" in m)
assert d["best_time"] == best and d["trace"][-1] == best
assert all(a >= b for a, b in zip(d["trace"], d["trace"][1:])), "trace not monotone"
print("ok", d["strategy"])
