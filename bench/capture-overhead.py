#!/usr/bin/env python3
"""The time split of bench/capture-overhead.sh's runs, as a Markdown table.

Reads DIR/NAME.{before,after}.report.json (the main command's --report) and
NAME.MODE.wall.json. The split is the corpus report's (bench/corpus-report.py):
GPU runs = the search's program runs, the original's included ("measure"),
plus the confirmation; nvcc = the compiles the search waited for; the tool's
overhead = wall minus those two. "compare" is the output comparison's total,
"waited" the part of it the search waited for (it overlaps the next run).

Usage: capture-overhead.py DIR
"""
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    d = sys.argv[1]
    names = sorted({f.split(".")[0] for f in os.listdir(d)
                    if f.endswith(".report.json")})
    print("| program | mode | evals | wall s | GPU runs s | compare s (waited) "
          "| nvcc waited s | tool overhead | s per eval | decision |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        for mode in ("before", "after"):
            rep = load(os.path.join(d, "%s.%s.report.json" % (name, mode)))
            wall = load(os.path.join(d, "%s.%s.wall.json" % (name, mode)))
            if not rep:
                print("| %s | %s | no report | | | | | | | |" % (name, mode))
                continue
            s = rep["seconds"]
            w = (wall or {}).get("wall_s") or s.get("wall") or s["total"]
            gpu = s["measure"] + s.get("confirm", 0)
            nvcc = s.get("compile_wait", 0)
            tool = w - gpu - nvcc
            evals = max(1, len(rep["evaluations"]))
            wrote = rep["decision"].startswith("Wrote")
            print("| %s | %s | %d | %.1f | %.1f | %.1f (%.1f) | %.1f | %.1f s = %.1f%% "
                  "| %.2f | %s |" % (
                      name, mode, evals, w, gpu, s.get("verify", 0),
                      s.get("verify_wait", s.get("verify", 0)), nvcc, tool,
                      100 * tool / w, w / evals,
                      ("%.2fx written" % rep["speedup"]) if wrote else "original kept"))


if __name__ == "__main__":
    main()
