#!/usr/bin/env python3
"""check-knobs.py TOOL LIST ROOT: every `<file> <knob id>` line of LIST (files
relative to ROOT) names a knob TOOL still offers in `--analyze`; prints the
missing ones and exits 1 if any."""
import collections
import json
import os
import subprocess
import sys

tool, listing, root = sys.argv[1:4]
wanted = collections.defaultdict(list)
with open(listing) as f:
    for line in f:
        line = line.strip()
        if line and not line.startswith("#"):
            path, knob = line.split()
            wanted[path].append(knob)
missing = []
for path, knobs in sorted(wanted.items()):
    r = subprocess.run([tool, os.path.join(root, path), "--analyze"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        missing.extend(f"{path} {k} (analyze failed: {r.stderr.strip()[:200]})" for k in knobs)
        continue
    have = {k["id"] for k in json.loads(r.stdout)["knobs"]}
    missing.extend(f"{path} {k}" for k in knobs if k not in have)
for m in missing:
    print("lost knob:", m)
total = sum(len(v) for v in wanted.values())
print(f"{total - len(missing)} of {total} knobs still offered")
sys.exit(1 if missing else 0)
