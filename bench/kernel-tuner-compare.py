#!/usr/bin/env python3
"""Kernel Tuner's own strategies on brute-forced Kernel Tuner cache files, in
Kernel Tuner's simulation mode: how many evaluations each needs before its
best valid time is within 5% (--target) of the cache's optimum, median over
seeds. The metric and the output layout are those of
bench/search-efficiency.py, which measures this tool's strategies on the
same files, so the two tables can be put side by side.

    bench/kernel-tuner-compare.py --out kt.json --md kt.md \\
        ../shared/tuning-spaces/kernel_tuner/*.json.gz

Kernel Tuner
------------
Installed by this script when `import kernel_tuner` does not give the pinned
version (KERNEL_TUNER_VERSION below, 1.5.0 from PyPI): a virtualenv is made at
--venv (default build/kernel-tuner-venv), `pip install kernel_tuner==1.5.0`
is run in it (its dependencies come unpinned; the versions used are written to
the JSON output), and the script re-executes itself with the venv's Python
(PYTHONHASHSEED=0). Simulation mode needs no GPU, no CUDA and no PyCUDA /
cuda-python: tune_kernel is called with the cache's kernel_name, a dummy
kernel string, the cache's problem_size, arguments=[], tune_params in
tune_params_keys order, cache=<path>, simulation_mode=True, strategy,
strategy_options={"max_fevals": budget}, objective="time" and restrictions
(below). Kernel Tuner reads the cache with open() (no gzip) and appends
".json" to a name that lacks it, so each file is decompressed once to a
temporary <space>.json under /tmp, removed at the end; the inputs are never
touched.

Kernel Tuner's simulation-mode semantics (read in kernel_tuner 1.5.0's
runners/simulation.py and strategies/common.py, and checked by experiment)
---------------------------------------------------------------------------
* Configurations absent from the cache: a configuration that a strategy
  proposes is first checked against the restrictions (strategies do that in
  CostFunc; a few pass check_restrictions=False and leave it to the runner).
  One that fails them becomes an InvalidConfig without reaching the cache and
  costs no evaluation. One that passes them but is not in the cache makes the
  simulation runner raise ValueError ("in simulation mode, all configurations
  must be present in the cache"); without restrictions that happens at once
  on these files (e.g. convolution: 10,240 configurations in the Cartesian
  product, 4,362 in the cache). So every run here gets one restriction,
  "the configuration is a key of the cache": the search space is then exactly
  the cache, failed configurations included (checked: random_sample with
  max_fevals above the size returns all 4,362 entries of
  convolution_milo_A6000, 473 of them failed, and no result outside the
  cache; the script also counts results outside the cache per run). (kernel_tuner.tune_cache instead infers a
  restriction that also drops the entries with CompilationFailedConfig /
  RuntimeFailedConfig, which would make the space smaller than the tool's.)
* What counts toward max_fevals: the runner calls budget.add_evaluations(1)
  the first time it serves a cache key, valid or failed
  (CompilationFailedConfig / RuntimeFailedConfig count); serving the same key
  again costs nothing, and restriction-refused proposals cost nothing. That is
  the tool's definition (distinct configurations measured, valid or failed at
  build/run time). Checked: on convolution_milo_A6000 with max_fevals=200,
  random_sample returned 200 results (22 failed), genetic_algorithm 1,453
  results of which 200 distinct, greedy_ils 250 / 200, pso 258 / 200.
* The results tune_kernel returns are in evaluation order but include every
  repeat (a genetic algorithm re-evaluates its population); they are
  converted here to the tool's count: evaluation n is the n-th distinct cache
  key in the returned list.
* max_fevals larger than the space is clamped to the space's size by Kernel
  Tuner; the budget here is min(--budget, points), as in search-efficiency.py.
* Some strategies end before using the budget (reported as "stopped early"):
  simulated_annealing's schedule reaches T_min once 75% of max_fevals
  distinct configurations are evaluated (T=0.1, T_min=1e-4, alpha=0.9975:
  T = T*alpha^(max_iter/max_fevals*n) with max_iter computed from
  T_min/1 instead of T_min/T), and genetic_algorithm stops after 90
  generations of 26 (2,340 proposals, mostly repeats once it converges:
  233 distinct configurations with max_fevals=1000 on
  convolution_milo_A6000, seed 1), pso after 190 iterations of 50
  particles. Kernel Tuner's default strategy options are kept.

Seeding
-------
tune_kernel's seed= argument is only used by the pymoo strategies. The
strategies used here draw from Python's `random` and NumPy's global
`np.random` state, so each run seeds both with its seed K (1..--seeds) just
before tune_kernel. One exception: bayes_opt's initial Latin-hypercube sample
is drawn by scipy.stats.qmc.LatinHypercube without an rng, i.e. from fresh OS
entropy, so it is not reproducible (checked: two runs with the same global
seed differed from the first configuration). This script therefore passes
LatinHypercube an rng = np.random.default_rng(K) (a wrapper installed in
kernel_tuner.strategies.bayes_opt and scipy.stats.qmc); nothing else of the
strategy is changed. With that, all six default strategies repeat exactly for
a given seed (checked by running the test twice, with -j 1 and -j 2).

Evaluations to the target
-------------------------
For each cache file, strategy and seed K: the number of distinct
configurations evaluated (as above) up to and including the first one whose
time is within --target of the cache's optimum (the smallest positive numeric
"time" in the cache); a run that never gets there counts as budget + 1.
Median and 25th/75th percentiles over the seeds (same indexing as
search-efficiency.py).

Known differences from the tool's simulation (cuda-rewrite-opt --simulate)
--------------------------------------------------------------------------
* Kernel Tuner has no original: its first evaluation is a point the strategy
  picks (usually random). The tool always measures the original first (for a
  Kernel Tuner cache, the valid point of median time) and counts it as
  evaluation 1, so the tool's counts carry one evaluation that cannot hit
  the target unless the original is within 5%.
* search-efficiency.py's budget defaults to the space's size; this script's
  to 1000 (Kernel Tuner's strategies are built for small budgets). Compare
  with `search-efficiency.py --budget 1000` for equal never-reached counts.
* Kernel Tuner evaluates one configuration at a time (populations are
  evaluated in order), the tool in batches (--batch); the count of distinct
  evaluations is the same notion either way.
* "wall seconds per run" is the whole tune_kernel call, including Kernel
  Tuner reading and parsing the decompressed cache (0.1-0.3 s on these files)
  and building the search space; it is not the strategy's time alone.
"""
import argparse, concurrent.futures as cf, gzip, json, multiprocessing, os, shutil
import statistics, subprocess, sys, tempfile, time

KERNEL_TUNER_VERSION = "1.5.0"
DEFAULT_STRATEGIES = ("random_sample,genetic_algorithm,simulated_annealing,"
                      "bayes_opt,pso,greedy_ils")
REFERENCE = "random_sample"


# ---------------------------------------------------------------- install --

def installed_version():
    try:
        from importlib.metadata import version, PackageNotFoundError
        return version("kernel_tuner")
    except Exception:
        return None


def ensure_kernel_tuner(venv):
    """Return when Kernel Tuner KERNEL_TUNER_VERSION imports here; otherwise
    install it into the venv and re-execute this script there."""
    if installed_version() == KERNEL_TUNER_VERSION:
        try:
            import kernel_tuner  # noqa: F401
            return
        except Exception as e:
            sys.exit(f"kernel_tuner {KERNEL_TUNER_VERSION} is installed but "
                     f"does not import: {e}")
    if os.environ.get("KT_COMPARE_REEXEC"):
        sys.exit(f"kernel_tuner=={KERNEL_TUNER_VERSION} still missing in "
                 f"{sys.prefix} after installing it")
    venv = os.path.abspath(venv)
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        print(f"creating virtualenv {venv}", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", venv])
    have = subprocess.run(
        [py, "-c", "from importlib.metadata import version; "
                   "print(version('kernel_tuner'))"],
        capture_output=True, text=True).stdout.strip()
    if have != KERNEL_TUNER_VERSION:
        print(f"installing kernel_tuner=={KERNEL_TUNER_VERSION} into {venv}",
              file=sys.stderr)
        subprocess.check_call([py, "-m", "pip", "install", "--quiet",
                               f"kernel_tuner=={KERNEL_TUNER_VERSION}"])
    env = dict(os.environ, KT_COMPARE_REEXEC="1", PYTHONHASHSEED="0")
    os.execve(py, [py, os.path.abspath(__file__)] + sys.argv[1:], env)


# ----------------------------------------------------------------- spaces --

def space_name(path):
    base = os.path.basename(path)
    for ext in (".gz", ".json"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    return base


def decompress(path, tmpdir):
    """A plain-JSON copy <tmpdir>/<space>.json that Kernel Tuner can read."""
    out = os.path.join(tmpdir, space_name(path) + ".json")
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    with (gzip.open(path, "rb") if gz else open(path, "rb")) as src, \
            open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return out


def valid_time(record):
    t = record.get("time")
    if "__error__" in record or isinstance(t, bool) or \
            not isinstance(t, (int, float)) or t <= 0:
        return None
    return float(t)


_LOADED = {}  # per process: json path -> parsed space


def load(json_path):
    if json_path not in _LOADED:
        d = json.load(open(json_path))
        keys = d["tune_params_keys"]
        times = {k: valid_time(r) for k, r in d["cache"].items()}
        _LOADED.clear()  # one space at a time per worker is enough
        _LOADED[json_path] = {
            "kernel_name": d["kernel_name"],
            "problem_size": d["problem_size"],
            "keys": keys,
            "tune_params": {k: d["tune_params"][k] for k in keys},
            "present": set(tuple(r[k] for k in keys)
                           for r in d["cache"].values()),
            "times": times,
            "objective": d.get("objective", "time"),
        }
    return _LOADED[json_path]


# ------------------------------------------------------------------- runs --

def seed_everything(seed):
    import random
    import numpy as np
    random.seed(seed)
    np.random.seed(seed)
    # bayes_opt's Latin-hypercube initial sample ignores the global state.
    import scipy.stats.qmc as qmc
    import kernel_tuner.strategies.bayes_opt as bo
    base = getattr(qmc, "_kt_compare_original_lhs", qmc.LatinHypercube)
    qmc._kt_compare_original_lhs = base
    rng = np.random.default_rng(seed)

    class SeededLatinHypercube(base):
        def __init__(self, d, **kw):
            if kw.get("rng") is None and kw.get("seed") is None:
                kw["rng"] = rng
            super().__init__(d, **kw)

    qmc.LatinHypercube = SeededLatinHypercube
    bo.LatinHypercube = SeededLatinHypercube


def stop_at_goal(goal):
    """Makes Kernel Tuner end a run as soon as a configuration within the
    goal has been evaluated: after each call of the simulation runner whose
    results include one, the budget's max_fevals is lowered to the
    evaluations already spent, so the cost function raises
    StopCriterionReached the way it does when a budget runs out and the
    strategy returns its results. The metric (distinct evaluations up to the
    first within the goal) is unchanged; the rest of the budget is not spent,
    which is what makes bayes_opt affordable (its model's cost grows with
    every evaluation)."""
    from kernel_tuner.runners.simulation import SimulationRunner
    base = getattr(SimulationRunner, "_kt_compare_original_run",
                   SimulationRunner.run)
    SimulationRunner._kt_compare_original_run = base

    def run(self, parameter_space, tuning_options):
        results = base(self, parameter_space, tuning_options)
        for r in results:
            if r and "__error__" not in r and \
                    isinstance(r.get("time"), (int, float)) and \
                    0 < r["time"] <= goal:
                b = tuning_options.budget
                b.max_fevals = max(1, b.num_fevals)
                break
        return results

    SimulationRunner.run = run


def run(json_path, strategy, seed, budget, goal, stop_at_target=False,
        sequence=False):
    """One Kernel Tuner run. With sequence=True the result also has
    "sequence": the distinct cache keys in evaluation order (valid and
    failed ones; repeats dropped), which bench/methodology-score.py turns
    into best-so-far curves."""
    import warnings
    warnings.filterwarnings("ignore")
    from kernel_tuner import tune_kernel
    from kernel_tuner.util import FunctionConstraint
    sp = load(json_path)
    present, times, keys = sp["present"], sp["times"], sp["keys"]

    def in_cache(*values):
        return values in present

    seed_everything(seed)
    if stop_at_target:
        stop_at_goal(goal)
    t0 = time.perf_counter()
    try:
        results, _ = tune_kernel(
            sp["kernel_name"], "__global__ void dummy() {}",
            tuple(sp["problem_size"]) if isinstance(sp["problem_size"], list)
            else sp["problem_size"], [], sp["tune_params"],
            restrictions=[FunctionConstraint(in_cache)], cache=json_path,
            simulation_mode=True, strategy=strategy,
            strategy_options={"max_fevals": budget}, objective="time",
            seed=seed, quiet=True, verbose=False)
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}
    wall = time.perf_counter() - t0
    seen, n, failed, outside = set(), None, 0, 0
    order = []
    for r in results:
        key = ",".join(str(r[k]) for k in keys)
        if key not in times:
            outside += 1  # never happens with the restriction; kept as a check
            continue
        if key in seen:
            continue
        seen.add(key)
        order.append(key)
        t = times[key]
        if t is None:
            failed += 1
        elif n is None and t <= goal:
            n = len(seen)
    out = {"evaluations": n if n is not None else budget + 1,
           "distinct": len(seen), "results": len(results),
           "failed": failed, "outside_cache": outside, "wall": wall}
    if sequence:
        out["sequence"] = order
    return out


# ------------------------------------------------------------------- main --

def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--venv", default="build/kernel-tuner-venv",
                    help="virtualenv for Kernel Tuner (made when needed)")
    ap.add_argument("--strategies", default=DEFAULT_STRATEGIES)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--budget", type=int, default=1000,
                    help="max_fevals per run, clamped to the space's size")
    ap.add_argument("--target", type=float, default=0.05,
                    help="how close to the optimum counts as found (0.05)")
    ap.add_argument("--stop-at-target", action="store_true",
                    help="end each run once a configuration within the "
                    "target is evaluated (same counts; the distinct/stopped "
                    "early columns then describe the shortened runs)")
    ap.add_argument("-j", type=int, default=1, help="parallel processes")
    ap.add_argument("--out", required=True, help="JSON results")
    ap.add_argument("--md", help="Markdown table")
    ap.add_argument("spaces", nargs="+", help="Kernel Tuner cache files "
                    "(.json or .json.gz)")
    a = ap.parse_args()
    ensure_kernel_tuner(a.venv)

    strategies = [s for s in a.strategies.split(",") if s]
    from kernel_tuner.interface import strategy_map
    unknown = [s for s in strategies if s not in strategy_map]
    if unknown:
        sys.exit(f"unknown Kernel Tuner strategies: {unknown}")

    t_start = time.time()
    tmpdir = tempfile.mkdtemp(prefix="kt-compare-", dir="/tmp")
    results, raw = {}, {}
    try:
        jobs = []
        for path in a.spaces:
            name = space_name(path)
            jp = decompress(path, tmpdir)
            d = json.load(open(jp))
            valid = [t for t in (valid_time(r) for r in d["cache"].values())
                     if t is not None]
            if not valid:
                sys.exit(f"{path}: no configuration with a time")
            opt = min(valid)
            points = len(d["cache"])
            budget = min(points, a.budget)
            del d
            results[name] = {
                "file": path, "points": points, "budget": budget,
                "within_5pct": sum(1 for t in valid if t <= opt * (1 + a.target)),
                "valid_points": len(valid), "optimum_ms": opt,
                "original_ms": None, "strategies": {}}
            goal = opt * (1 + a.target)
            for s in strategies:
                for k in range(1, a.seeds + 1):
                    jobs.append((name, jp, s, k, budget, goal))
        ctx = multiprocessing.get_context("fork")
        with cf.ProcessPoolExecutor(max(1, a.j), mp_context=ctx) as pool:
            futs = {pool.submit(run, jp, s, k, budget, goal,
                                a.stop_at_target): (name, s, k)
                    for name, jp, s, k, budget, goal in jobs}
            done = 0
            for f in cf.as_completed(futs):
                name, s, k = futs[f]
                r = f.result()
                raw.setdefault((name, s), []).append((k, r))
                done += 1
                msg = r.get("error") or (f"{r['evaluations']} evaluations, "
                                         f"{r['wall']:.1f} s")
                print(f"[{done}/{len(jobs)}] {name} {s} seed {k}: {msg}",
                      file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)

    for (name, s), rs in raw.items():
        rs.sort()
        budget = results[name]["budget"]
        errors = [r["error"] for _, r in rs if "error" in r]
        ok = [r for _, r in rs if "error" not in r]
        if errors:
            results[name]["strategies"][s] = {"error": errors[0],
                                              "failed_runs": len(errors),
                                              "seeds": len(rs)}
            continue
        evals = sorted(r["evaluations"] for r in ok)
        results[name]["strategies"][s] = {
            "median_evaluations": statistics.median(evals),
            "p25": evals[len(evals) // 4], "p75": evals[(3 * len(evals)) // 4],
            "never_reached": sum(1 for e in evals if e > budget),
            "stopped_early": sum(1 for r in ok if r["distinct"] < budget),
            "seeds": len(ok),
            "evaluations_per_seed": [r["evaluations"] for r in ok],
            "median_distinct_evaluations": statistics.median(r["distinct"] for r in ok),
            "median_results_returned": statistics.median(r["results"] for r in ok),
            "median_failed_evaluations": statistics.median(r["failed"] for r in ok),
            "results_outside_cache": sum(r["outside_cache"] for r in ok),
            "wall_seconds_per_run": statistics.median(r["wall"] for r in ok),
            "wall_seconds_per_run_max": max(r["wall"] for r in ok)}

    def ok(st):
        return "error" not in st

    summary = {}
    if REFERENCE in strategies:
        for s in strategies:
            ratios = []
            for r in results.values():
                ref, st = r["strategies"][REFERENCE], r["strategies"][s]
                if ok(ref) and ok(st):
                    ratios.append(st["median_evaluations"] / ref["median_evaluations"])
            if ratios:
                summary[s] = {"median_ratio_to_random": statistics.median(ratios),
                              "worst_ratio_to_random": max(ratios),
                              "spaces_worse_than_random": sum(1 for x in ratios if x > 1)}
    try:
        from importlib.metadata import version
        versions = {p: version(p) for p in ("kernel_tuner", "numpy", "scipy",
                                            "scikit-learn", "python-constraint2")}
    except Exception:
        versions = {"kernel_tuner": installed_version()}
    versions["python"] = sys.version.split()[0]
    out = {"date": time.strftime("%Y-%m-%d"), "tool": "kernel_tuner",
           "versions": versions, "seeds": a.seeds,
           "stop_at_target": a.stop_at_target, "strategies": strategies,
           "target_fraction": a.target, "budget": a.budget,
           "reference_strategy": REFERENCE,
           "method": "Kernel Tuner simulation mode (tune_kernel with "
                     "simulation_mode=True, restriction: configuration in "
                     "the cache, strategy_options max_fevals = budget, "
                     "default strategy options); evaluations = distinct "
                     "cache configurations evaluated (failed ones included, "
                     "repeats not) until the best valid time is within the "
                     "target of the cache's optimum; median over seeds; a "
                     "run that never gets there counts as its budget + 1; "
                     "no original (Kernel Tuner has none)",
           "spaces": results, "summary": summary,
           "wall_seconds": time.time() - t_start}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)

    if a.md:
        pct = f"{100 * a.target:g}%"
        lines = [f"| space | points | within {pct} | " + " | ".join(strategies) + " |",
                 "|---|---|---|" + "---|" * len(strategies)]
        for name, r in results.items():
            cells = []
            for s in strategies:
                st = r["strategies"][s]
                if not ok(st):
                    cells.append("error")
                    continue
                extra = ""
                if st["never_reached"]:
                    extra += f", {st['never_reached']} never"
                if st["stopped_early"]:
                    extra += f", {st['stopped_early']} stopped early"
                cells.append(f"{st['median_evaluations']:g} "
                             f"({st['p25']}-{st['p75']}{extra})")
            lines.append(f"| {name} | {r['points']} | {r['within_5pct']} | "
                         + " | ".join(cells) + " |")
        if summary:
            lines.append(f"| **median ratio to {REFERENCE}** | | | " + " | ".join(
                f"{summary[s]['median_ratio_to_random']:.2f}" if s in summary else "-"
                for s in strategies) + " |")
            lines.append(f"| **worst ratio to {REFERENCE}** | | | " + " | ".join(
                f"{summary[s]['worst_ratio_to_random']:.2f}" if s in summary else "-"
                for s in strategies) + " |")

        def wall(s):
            w = [r["strategies"][s]["wall_seconds_per_run"]
                 for r in results.values() if ok(r["strategies"][s])]
            return f"{statistics.median(w):.2f}" if w else "-"
        lines.append("| **wall seconds per run** (median) | | | "
                     + " | ".join(wall(s) for s in strategies) + " |")
        with open(a.md, "w") as f:
            f.write("\n".join(lines) + "\n")
    print(json.dumps(summary, indent=1))
    for name, r in results.items():
        print(name, r["points"], r["within_5pct"],
              {s: r["strategies"][s].get("median_evaluations", "error")
               for s in strategies})


if __name__ == "__main__":
    main()
