#!/usr/bin/env python3
"""Splits the corpus into one list of programs per GPU for bench/run.sh's
SHARDS, balanced by how long each program took in an earlier run: its logs
(run*.txt) say `== name` and then `[N s]` when the program finished. A
program with no time there gets --default seconds. Longest first, each onto
the list with the least time so far (within 4/3 of the best split).

Usage: python3 bench/corpus-shards.py --gpus 2 bench/results/RUN/run*.txt
Prints the SHARDS value, then one line per GPU with its estimated seconds
(on stderr)."""
import argparse, json, os, re, sys

ap = argparse.ArgumentParser()
ap.add_argument("--gpus", type=int, default=2)
ap.add_argument("--default", type=float, default=240.0)
ap.add_argument("logs", nargs="*")
a = ap.parse_args()

seconds = {}
for log in a.logs:
    name = None
    for line in open(log):
        m = re.match(r"== (\S+)$", line.strip())
        if m:
            name = m.group(1)
            continue
        t = re.search(r"\[(\d+) s\]\s*$", line)
        if t and name:
            seconds[name] = float(t.group(1))
            name = None

corpus = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus.json")))
names = [p["name"] for p in corpus["programs"]]
cost = {n: seconds.get(n, a.default) for n in names}
shards = [[] for _ in range(max(1, a.gpus))]
load = [0.0] * len(shards)
for n in sorted(names, key=lambda n: (-cost[n], n)):
    i = load.index(min(load))
    shards[i].append(n)
    load[i] += cost[n]
print(";".join(",".join(s) for s in shards))
for i, (s, l) in enumerate(zip(shards, load)):
    print(f"GPU {i}: {l:.0f} s: " + ", ".join(f"{n} {cost[n]:.0f}" +
          ("" if n in seconds else " (default)") for n in s), file=sys.stderr)
