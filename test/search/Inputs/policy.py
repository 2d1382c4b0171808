#!/usr/bin/env python3
"""A scripted external policy for --strategy external:CMD (docs/search.md).

It walks the knobs one at a time from the original, keeps a value when it
made the kernel faster, and logs every message it receives to the file named
in POLICY_LOG (when set), so the tests can check the protocol. With
--bad it first proposes an unknown knob and an illegal value, which the tool
must report back as invalid without building them.
"""
import json, os, sys

bad = "--bad" in sys.argv
log = open(os.environ["POLICY_LOG"], "a") if os.environ.get("POLICY_LOG") else None
space = None
best, best_time = {}, None
queue = []

def plan():
    """Every one-knob change of the best configuration not tried yet."""
    out = []
    for k in space["knobs"]:
        for v in k["values"]:
            c = dict(best)
            if v == k["default"]:
                c.pop(k["id"], None)
            else:
                c[k["id"]] = v
            if json.dumps(c, sort_keys=True) not in tried:
                out.append(c)
    return out

tried = set()
for line in sys.stdin:
    msg = json.loads(line)
    if log:
        log.write(msg["type"] + "\n")
        log.flush()
    if msg["type"] == "start":
        space = msg["space"]
        assert "budget" in msg and "kernel_features" in msg
    elif msg["type"] == "ask":
        configs = []
        if bad:
            configs += [{"config": {"no.such.knob": 1}, "why": "a typo"},
                        {"config": {space["knobs"][0]["id"]: "not-a-value"}}]
            bad = False
        for c in plan():
            if len(configs) >= msg["n"]:
                break
            tried.add(json.dumps(c, sort_keys=True))
            configs.append({"config": c, "why": "one knob from the best"})
        print(json.dumps({"configs": configs}), flush=True)
    elif msg["type"] == "tell":
        for r in msg["results"]:
            if log:
                log.write(f"  {r['verdict']} {json.dumps(r['config'], sort_keys=True)}"
                          f" {r.get('reason', '')[:60]}\n")
            tried.add(json.dumps(r["config"], sort_keys=True))
            t = r.get("time_ms")
            if t is not None and (best_time is None or t < best_time):
                best, best_time = r["config"], t
    elif msg["type"] == "end":
        break
