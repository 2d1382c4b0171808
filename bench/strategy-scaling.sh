#!/usr/bin/env bash
# What a proposal costs as the space grows (issue 22): every built-in
# strategy on synthetic spaces of 1k, 10k, 100k and 1M points, with 25% and
# 5% of the product valid, the valid set listed (recorded spaces, spaces
# the legality oracle judged whole) and learned from refusals. Writes
# OUT/scaling-<fraction>.json and OUT/README.md (a table per fraction).
#
# Usage: bench/strategy-scaling.sh OUT [BIN]   (BIN: cro-strategy-scaling,
# default build/bin/cro-strategy-scaling). Run it on the machine whose
# evaluations the strategies' costs are compared with (the GPU machine).
set -euo pipefail
OUT=${1:?usage: bench/strategy-scaling.sh OUT [BIN]}
BIN=${2:-build/bin/cro-strategy-scaling}
BUDGET=${BUDGET:-1000}
mkdir -p "$OUT"
for F in 0.25 0.05; do
  "$BIN" --budget "$BUDGET" --valid-fraction "$F" > "$OUT/scaling-$F.json"
done
python3 - "$OUT" <<'PY'
import json, os, platform, sys, time
out = sys.argv[1]
lines = ["# Strategy proposal cost against space size", "",
         f"Date: {time.strftime('%Y-%m-%d')}. Machine: {platform.node()}, "
         f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}). "
         "Method: bench/strategy-scaling.sh (cro-strategy-scaling): one run of "
         "each strategy per space through the real search loop, synthetic "
         "evaluator; the strategy's own time (ask + tell) divided by the "
         "evaluations. Target (issue 22): under 10 ms a proposal at 100,000 "
         "points.", ""]
for f in ("0.25", "0.05"):
    d = json.load(open(os.path.join(out, f"scaling-{f}.json")))
    runs = d["runs"]
    sizes = sorted({r["points"] for r in runs})
    strategies = list(dict.fromkeys(r["strategy"] for r in runs))
    lines += [f"## {float(f):.0%} of the product valid, budget {d['budget']}, batch {d['batch']}", "",
              "ms per evaluation (valid set listed / learned from refusals); "
              "refused proposals when learned; stop reason", "",
              "| strategy | " + " | ".join(f"{s:,} points" for s in sizes) + " |",
              "|---|" + "---|" * len(sizes)]
    for st in strategies:
        cells = []
        for s in sizes:
            l = next(r for r in runs if r["strategy"] == st and r["points"] == s and r["valid_set_listed"])
            u = next(r for r in runs if r["strategy"] == st and r["points"] == s and not r["valid_set_listed"])
            cells.append(f"{l['strategy_ms_per_evaluation']:.2f} / {u['strategy_ms_per_evaluation']:.2f}; "
                         f"{u['invalid_proposals']} refused; {l['stop_reason']}")
        lines.append(f"| {st} | " + " | ".join(cells) + " |")
    def per_proposal(r):  # every proposal costs, refused ones too
        return (r["strategy_ms_per_evaluation"] * r["evaluations"]
                / (r["evaluations"] + r["invalid_proposals"]))
    at100k = [r for r in runs if r["points"] == 100000]
    worst = max(at100k, key=per_proposal)
    worst_eval = max(runs, key=lambda r: r["strategy_ms_per_evaluation"])
    lines += ["", f"At 100,000 points the costliest is {worst['strategy']} "
              f"({'listed' if worst['valid_set_listed'] else 'learned'}): "
              f"{per_proposal(worst):.2f} ms a proposal. Costliest per evaluation "
              f"anywhere: {worst_eval['strategy']} at {worst_eval['points']:,} points "
              f"({'listed' if worst_eval['valid_set_listed'] else 'learned'}), "
              f"{worst_eval['strategy_ms_per_evaluation']:.2f} ms an evaluation, "
              f"{per_proposal(worst_eval):.2f} ms a proposal "
              f"({worst_eval['invalid_proposals']} refused proposals for "
              f"{worst_eval['evaluations']} evaluations).", ""]
open(os.path.join(out, "README.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
