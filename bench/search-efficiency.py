#!/usr/bin/env python3
"""Search-efficiency benchmark (issue 6): for every recorded space given
(bench/spaces/*.json; Kernel Tuner caches and T4 files too), how many evaluations each strategy needs before its best
variant is within 5% of the space's optimum, median over many seeds,
against random search without replacement on the same space.

Every run is `cuda-rewrite-opt --simulate SPACE --strategy S --seed K` with
the budget set to the space's size (so every strategy can finish) and no
early stop. A run that never gets within 5% counts as budget + 1.
Evaluations include the original, which every strategy measures first.

Also reported: the strategy's own time (proposing candidates) per
evaluation, to compare with the time the GPU and the compiler spend on one
evaluation in the recordings.
"""
import argparse, concurrent.futures as cf, json, os, statistics, subprocess, sys, time

def run(tool, space, strategy, seed, budget, batch, target):
    r = subprocess.run([tool, "--simulate", space, "--strategy", strategy,
                        "--seed", str(seed), "--budget", str(budget),
                        "--batch", str(batch), "--patience", "0"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{space} {strategy} {seed}: {r.stderr}")
    d = json.loads(r.stdout)
    # Evaluations until the best verified time is within the target: the
    # first point of the trace (best so far after each evaluation) there.
    goal = d["optimum"] * (1 + target)
    n = next((i + 1 for i, t in enumerate(d["trace"])
              if t is not None and t <= goal), None)
    return (n if n is not None else budget + 1, d["strategy_seconds"],
            d["evaluations"], d["stop_reason"])

def describe(tool, space):
    """The space as the tool reads it (its own recordings, Kernel Tuner
    caches and T4 files, plain or gzip'd): every point it lists, from one
    exhaustive simulation."""
    r = subprocess.run([tool, "--simulate", space, "--strategy", "exhaustive",
                        "--budget", "100000000", "--patience", "0"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{space}: {r.stderr}")
    d = json.loads(r.stdout)
    return {"name": d["space"], "measured": d["evaluations"],
            "original_ms": d["original_time"],
            "times": [m["time_ms"] for m in d["moves"] if "time_ms" in m]}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", default="build/bin/cuda-rewrite-opt")
    ap.add_argument("--seeds", type=int, default=50)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--budget", type=int, default=0,
                    help="evaluations per run (default: the space's size)")
    ap.add_argument("--target", type=float, default=0.05,
                    help="how close to the optimum counts as found (0.05)")
    ap.add_argument("--strategies", default="agent,bayes,anneal,genetic,random")
    ap.add_argument("-j", type=int, default=os.cpu_count())
    ap.add_argument("--out", required=True, help="JSON results")
    ap.add_argument("--md", help="Markdown table")
    ap.add_argument("spaces", nargs="+")
    a = ap.parse_args()
    strategies = a.strategies.split(",")
    results = {}
    t0 = time.time()
    with cf.ThreadPoolExecutor(a.j) as pool:
        jobs = {}
        for space in a.spaces:
            rec = describe(a.tool, space)
            measured = rec["measured"]
            budget = min(measured, a.budget) if a.budget else measured
            times = rec["times"]
            opt = min(times)
            within = sum(1 for t in times if t <= opt * (1 + a.target))
            name = rec["name"]
            results[name] = {"file": space, "points": measured,
                             "budget": budget,
                             "within_5pct": within, "optimum_ms": opt,
                             "original_ms": rec["original_ms"],
                             "strategies": {}}
            for s in strategies:
                for k in range(1, a.seeds + 1):
                    jobs[pool.submit(run, a.tool, space, s, k, budget, a.batch,
                                      a.target)] = (name, s, k)
        raw = {}
        for f in cf.as_completed(jobs):
            name, s, k = jobs[f]
            raw.setdefault((name, s), []).append(f.result())
    for (name, s), rs in raw.items():
        evals = sorted(r[0] for r in rs)
        per_eval = [r[1] / max(1, r[2]) for r in rs]
        results[name]["strategies"][s] = {
            "median_evaluations": statistics.median(evals),
            "p25": evals[len(evals) // 4], "p75": evals[(3 * len(evals)) // 4],
            "never_reached": sum(1 for r in rs if r[0] > results[name]["budget"]),
            "stopped_early": sum(1 for r in rs
                                 if r[3] != "budget" and r[2] < results[name]["budget"]),
            "seeds": len(rs),
            "strategy_seconds_per_evaluation": statistics.median(per_eval)}
    summary = {}
    # Ratios to random search only where it ran too.
    for s in strategies if "random" in strategies else []:
        ratios = []
        for name, r in results.items():
            rnd = r["strategies"]["random"]["median_evaluations"]
            ratios.append(r["strategies"][s]["median_evaluations"] / rnd)
        summary[s] = {"median_ratio_to_random": statistics.median(ratios),
                      "worst_ratio_to_random": max(ratios),
                      "spaces_worse_than_random": sum(1 for x in ratios if x > 1)}
    out = {"date": time.strftime("%Y-%m-%d"), "seeds": a.seeds,
           "batch": a.batch, "target_fraction": a.target,
           "budget": a.budget or "the space's size",
           "method": "evaluations (the original included) until the best "
                     "verified time is within the target of the space's "
                     "optimum; median over seeds; a run that never gets "
                     "there counts as its budget + 1",
           "spaces": results, "summary": summary,
           "wall_seconds": time.time() - t0}
    json.dump(out, open(a.out, "w"), indent=1)
    if a.md:
        pct = f"{100 * a.target:g}%"
        lines = [f"| space | points | within {pct} | " + " | ".join(strategies) + " |",
                 "|---|---|---|" + "---|" * len(strategies)]
        for name, r in results.items():
            cells = []
            for s in strategies:
                st = r["strategies"][s]
                early = f", {st['stopped_early']} stopped early" if st["stopped_early"] else ""
                cells.append(f"{st['median_evaluations']:g} ({st['p25']}-{st['p75']}{early})")
            lines.append(f"| {name} | {r['points']} | {r['within_5pct']} | " + " | ".join(cells) + " |")
        if summary:
            lines.append("| **median ratio to random** | | | " + " | ".join(
                f"{summary[s]['median_ratio_to_random']:.2f}" for s in strategies) + " |")
            lines.append("| **worst ratio to random** | | | " + " | ".join(
                f"{summary[s]['worst_ratio_to_random']:.2f}" for s in strategies) + " |")
        lines.append("| **strategy ms per evaluation** (median) | | | " + " | ".join(
            "{:.2f}".format(1000 * statistics.median(
                r["strategies"][s]["strategy_seconds_per_evaluation"]
                for r in results.values())) for s in strategies) + " |")
        open(a.md, "w").write("\n".join(lines) + "\n")
    print(json.dumps(summary, indent=1))
    for name, r in results.items():
        print(name, r["points"], r["within_5pct"], {s: r["strategies"][s]["median_evaluations"] for s in strategies})

if __name__ == "__main__":
    main()
