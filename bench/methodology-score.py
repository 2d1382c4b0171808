#!/usr/bin/env python3
"""Kernel Tuner's methodology score (issue 19) for this tool's strategies and
Kernel Tuner's on brute-forced Kernel Tuner caches.

    bench/methodology-score.py --tool build/bin/cuda-rewrite-opt \\
        --runs runs.json.gz --out score.json --md score.md \\
        ../shared/tuning-spaces/kernel_tuner/*.json.gz
    bench/methodology-score.py --self-test

The score is the one of Willemsen, van Nieuwpoort and van Werkhoven, "A
methodology for comparing optimization algorithms for auto-tuning" (FGCS
2024), as the PyPI package autotuning_methodology 1.1.0 computes it (the
package Kernel Tuner 1.5.0's hyperparameter tuner calls,
kernel_tuner/backends/hypertuner.py, with the settings used here). What the
package does, read in its source (file:function), and what this script does:

Search space (searchspace_statistics.py)
  The distribution is the sorted list of the valid configurations' objective
  values ("time" here, minimised); failed configurations (Kernel Tuner's
  CompilationFailedConfig / RuntimeFailedConfig) have no value (NaN). The
  optimum is the smallest valid time, the median the median valid time.

Range (SearchspaceStatistics.cutoff_point, cutoff_point_fevals_time_start_end)
  cutoff_percentile p = 0.95 and cutoff_percentile_start = 0.01 (the package's
  experiments_defaults.json and Kernel Tuner's hypertuner). For p, the target
  value is optimum + (median - optimum) * (1 - p); i is the first index of the
  valid values sorted worst first that is <= the target (one less if that is
  the optimum itself); the number of function evaluations random search needs
  to get there is ceil(i / (N + 1 - i)), N = number of valid configurations.
  The range is [fevals(0.01), fevals(0.95)]. (The package widens a range
  shorter than 2 evaluations; none here is, so that branch is not copied: the
  script stops if it would be needed.)

Calculated random-search baseline (baseline.py:RandomSearchCalculatedBaseline)
  After M evaluations: the value at index round(M * (N + 1) / (M + 1)),
  capped at N - 1, of the values sorted worst first (include_nan=False, the
  default: only valid values, N valid) or of the NaNs followed by the valid
  values worst first (include_nan=True: N = all configurations, failed ones
  counting as worse than any valid one). This is the value at the expected
  rank of the best of M draws without replacement ("red-white" formula), not
  the expected best value. NOTE: the expected worst-first 0-based index of
  the best of M draws is M(N+1)/(M+1) - 1 (the self-test enumerates it); the
  package's index is one rank better than that (an off-by-one: for N = 3,
  M = 1 it returns the best value instead of the middle one). Over function
  evaluations the package then passes these values through a PCHIP
  interpolation evaluated at the same integers (no change there).

Strategy curve (curves.py:StochasticOptimizationAlgorithm)
  Per run the best valid value found so far; it is turned into its index in
  the ascending valid distribution (its rank), the ranks of all runs are
  pooled and fitted by a monotone (isotonic) regression of rank on the
  x-axis, the fit is rounded and looked up in the distribution. Where the x
  values are evaluation counts shared by all runs, the isotonic fit is the
  mean rank per count (each run's best-so-far rank never rises, so neither
  does the mean, once every run has a valid value). (The package's time-axis curve is the prediction of a
  bootstrap BaggingRegressor of isotonic regressors with no fixed random
  state, i.e. a noisy estimate of this fit; its fevals-axis plots use the
  median rank instead. Here: the plain isotonic fit, on both axes.)

Score (report_experiments.py:get_strategies_aggregated_performance,
get_strategy_scores; baseline.py:Baseline.get_standardised_curves)
  P(x) = (strategy(x) - baseline(x)) / (optimum - baseline(x)) at each point
  x of the range: 0 = as good as the calculated random search, 1 = at the
  optimum, negative = worse than random. The score of a strategy on a space is
  the mean of P over the range's points; the aggregate over spaces is the
  mean over spaces of those (the package averages the curves over spaces
  point by point, each space with the same number of points, then over the
  points: the same number).

X-axis. The package's score is over simulated time (cutoff_type "time",
objective_time_keys "all": compile, benchmark, verification, framework and
strategy time, 1,000 points between the range's start and end, each end =
its evaluation count * the median time per configuration). Its fevals axis
counts every result Kernel Tuner returns, repeats of a configuration
included. The axis both tools share is distinct evaluations (valid or
failed; a repeat costs nothing in Kernel Tuner's simulation runner either),
so the primary score here is over distinct evaluations, one point per
evaluation count of the range. The time axis is computed as a second score
for both tools (unless --no-time-axis) with per-configuration cost =
compile_time + verification_time + benchmark_time from the cache, charged
once per distinct configuration: the cache's framework/strategy times belong
to the run that recorded it, and neither tool's own overhead (a Python
process vs a C++ one on this machine) is comparable. As in the package: the
range's ends are its evaluation counts * the median cost, 1,000 points; the
baseline maps time to evaluations with the mean cost per evaluation (its
"mean_per_feval"), PCHIP-smoothed; the curve is the isotonic fit of the
pooled (cumulative time, rank) points within the range widened by a margin,
frozen after the "real stopping point" (the first run end above the median
run end). One change: where a run has at most one point in that window the
package raises "Not enough overlap in time range and time values"; here that
run is kept and counted (time_runs_with_at_most_one_point_in_range).

Baseline variants (evaluation axis; "package" is the primary one)
  package        include_nan=False, the package's index (its default)
  failed_count   include_nan=True: a failed configuration is a draw that
                 finds nothing, as random search on this axis meets them
  expected_rank  include_nan=True and the expected rank, M(N+1)/(M+1) - 1
  Random sampling without replacement from the cache scores about 0 against
  expected_rank, below 0 against the others (the checks below show by how
  much).

Checks (columns "check:...", not runs of either tool)
  an oracle that evaluates the optimum first (1 by construction), a
  worst-first order, 1,000 runs of random sampling without replacement over
  the whole cache drawn here (Python's random), the same with the tool's
  original as evaluation 1, and --noise-groups groups of --seeds such runs
  (the spread of a random strategy's score with that many seeds).
  --bootstrap N adds seed-resampling intervals of every column's score and of
  the difference agent - column.

Runs
  Every strategy gets budget B = min(ceil(1.1 * range end), configurations)
  distinct evaluations (the package's rule for cutoff_type "fevals"; its
  default time cutoff gives Kernel Tuner a time limit instead), 30 seeds.
  The tool: `cuda-rewrite-opt --simulate SPACE --strategy S --seed K
  --budget B --batch 4 --patience 0` (as bench/search-efficiency.py); its
  moves are mapped back to cache keys (the original, evaluation 1, is the
  cache's valid point of median time) and the trace it prints is checked
  against the mapped sequence. Kernel Tuner: bench/kernel-tuner-compare.py's
  run() (simulation mode, restriction "configuration in the cache", Python's
  and NumPy's global RNGs seeded with K, bayes_opt's Latin hypercube seeded)
  with max_fevals = B, returning the distinct cache keys in evaluation order.
  A run that stops before B keeps its last best (carried forward).
  The raw runs (cache indices in evaluation order) go to --runs, which is
  read back: runs already there are not run again.

The script is standard-library Python except where it runs Kernel Tuner (it
then re-executes itself in --venv, as kernel-tuner-compare.py does) and in
--check-package (numpy and autotuning_methodology, run with a Python that
has them: it compares this script's range, baseline and time-axis curves
with the package's own functions).
"""
import argparse, bisect, concurrent.futures as cf, gzip, importlib.util, json
import math, multiprocessing, os, random, shutil, statistics, subprocess, sys
import tempfile, time
from fractions import Fraction
from itertools import combinations

CUTOFF_PERCENTILE = 0.95
CUTOFF_PERCENTILE_START = 0.01
CUTOFF_MARGIN = 0.1
TIME_RESOLUTION = 1000
HERE = os.path.dirname(os.path.abspath(__file__))
KT_STRATEGIES = ("random_sample,genetic_algorithm,dual_annealing,"
                 "simulated_annealing,pso,greedy_ils,diff_evo")
TOOL_STRATEGIES = "agent,random,anneal,genetic"
# Variants of the evaluation-axis baseline (see the docstring).
VARIANTS = {
    # the package's RandomSearchCalculatedBaseline() as its score uses it
    "package": {"include_nan": False, "package_index": True},
    # include_nan=True: failed configurations are draws too, as on this axis
    "failed_count": {"include_nan": True, "package_index": True},
    # and the expected rank without the package's off-by-one
    "expected_rank": {"include_nan": True, "package_index": False},
}
PRIMARY = "package"


# ------------------------------------------------------------------ maths --

def rw_index(M, N, package_index=True):
    """Worst-first index of the calculated baseline after M draws of N."""
    e = M * (N + 1) / (M + 1)
    if not package_index:
        e -= 1
    return min(N - 1, max(0, round(e)))


def cutoff_fevals(asc, p):
    """(target value, fevals to reach it) as SearchspaceStatistics.cutoff_point
    (minimisation; asc = valid values ascending)."""
    opt, med = asc[0], statistics.median(asc)
    target = opt + (med - opt) * (1 - p)
    N = len(asc)
    # first index, worst first, whose value is <= target
    # (worst-first index j holds asc[N-1-j])
    i = next(j for j in range(N) if asc[N - 1 - j] <= target)
    if p != 1.0 and asc[N - 1 - i] == opt:
        if i == 0:
            raise ValueError("the optimum is reached directly")
        i -= 1
    return target, math.ceil(i / (N + 1 - i))


def cutoff_range(asc, p_start=CUTOFF_PERCENTILE_START, p_end=CUTOFF_PERCENTILE):
    _, s = cutoff_fevals(asc, p_start)
    _, e = cutoff_fevals(asc, p_end)
    if e - s < 2:
        raise NotImplementedError(
            "range shorter than 2 evaluations: the package widens it (with a "
            "comparison of an objective value against an evaluation count); "
            "not reproduced here")
    return s, e


def pava_decreasing(y, w):
    """Weighted least-squares non-increasing fit (pool adjacent violators)."""
    blocks = []  # [mean, weight, count]
    for yi, wi in zip(y, w):
        blocks.append([yi, wi, 1])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            m2, w2, c2 = blocks.pop()
            m1, w1, c1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2])
    out = []
    for m, _, c in blocks:
        out.extend([m] * c)
    return out


def isotonic_predict(xs, ys, x_new):
    """sklearn IsotonicRegression(increasing=False, y_min=min(ys),
    y_max=max(ys), out_of_bounds="clip").fit(xs, ys).predict(x_new): equal x
    averaged, PAVA, linear interpolation between the fitted points, constant
    beyond the ends."""
    pts = sorted(zip(xs, ys))
    ux, uy, uw = [], [], []
    for x, y in pts:
        if ux and x == ux[-1]:
            uy[-1] += y
            uw[-1] += 1
        else:
            ux.append(x)
            uy.append(y)
            uw.append(1)
    uy = [s / w for s, w in zip(uy, uw)]
    fit = pava_decreasing(uy, uw)
    lo, hi = min(ys), max(ys)
    fit = [min(hi, max(lo, v)) for v in fit]
    out = []
    for x in x_new:
        if x <= ux[0]:
            out.append(fit[0])
        elif x >= ux[-1]:
            out.append(fit[-1])
        else:
            k = bisect.bisect_right(ux, x) - 1
            x0, x1 = ux[k], ux[k + 1]
            out.append(fit[k] + (fit[k + 1] - fit[k]) * (x - x0) / (x1 - x0))
    return out


def _sign(v):
    return (v > 0) - (v < 0)


def pchip(xs, ys, x_new):
    """scipy.interpolate.PchipInterpolator(xs, ys)(x_new), 1-D, extrapolating."""
    n = len(xs)
    h = [xs[k + 1] - xs[k] for k in range(n - 1)]
    m = [(ys[k + 1] - ys[k]) / h[k] for k in range(n - 1)]
    if n == 2:
        d = [m[0], m[0]]
    else:
        d = [0.0] * n
        for k in range(1, n - 1):
            if _sign(m[k]) != _sign(m[k - 1]) or m[k] == 0 or m[k - 1] == 0:
                d[k] = 0.0
            else:
                w1 = 2 * h[k] + h[k - 1]
                w2 = h[k] + 2 * h[k - 1]
                d[k] = 1.0 / ((w1 / m[k - 1] + w2 / m[k]) / (w1 + w2))

        def edge(h0, h1, m0, m1):
            e = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
            if _sign(e) != _sign(m0):
                return 0.0
            if _sign(m0) != _sign(m1) and abs(e) > 3 * abs(m0):
                return 3 * m0
            return e
        d[0] = edge(h[0], h[1], m[0], m[1])
        d[-1] = edge(h[-1], h[-2], m[-1], m[-2])
    out = []
    for x in x_new:
        k = min(max(bisect.bisect_right(xs, x) - 1, 0), n - 2)
        hk = h[k]
        t = (x - xs[k]) / hk
        h00 = (1 + 2 * t) * (1 - t) ** 2
        h10 = t * (1 - t) ** 2
        h01 = t * t * (3 - 2 * t)
        h11 = t * t * (t - 1)
        out.append(h00 * ys[k] + h10 * hk * d[k] + h01 * ys[k + 1]
                   + h11 * hk * d[k + 1])
    return out


def linspace(a, b, n):
    if n == 1:
        return [a]
    step = (b - a) / (n - 1)
    return [a + i * step for i in range(n - 1)] + [b]


# ----------------------------------------------------------------- spaces --

def space_name(path):
    base = os.path.basename(path)
    for ext in (".gz", ".json"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    return base


def valid_time(record):
    t = record.get("time")
    if "__error__" in record or isinstance(t, bool) or \
            not isinstance(t, (int, float)) or t <= 0:
        return None
    return float(t)


class Space:
    def __init__(self, path):
        with open(path, "rb") as f:
            gz = f.read(2) == b"\x1f\x8b"
        with (gzip.open(path, "rt") if gz else open(path)) as f:
            d = json.load(f)
        self.path, self.name = path, space_name(path)
        self.param_keys = d["tune_params_keys"]
        cache = d["cache"]
        self.keys = list(cache)
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.params = [{p: r[p] for p in self.param_keys} for r in cache.values()]
        self.times = [valid_time(r) for r in cache.values()]
        self.cost_ms = [float(r.get("compile_time") or 0)
                        + float(r.get("verification_time") or 0)
                        + float(r.get("benchmark_time") or 0)
                        for r in cache.values()]
        self.asc = sorted(t for t in self.times if t is not None)
        self.n_valid, self.n_total = len(self.asc), len(self.keys)
        self.n_failed = self.n_total - self.n_valid
        self.opt, self.median = self.asc[0], statistics.median(self.asc)
        self.start, self.end = cutoff_range(self.asc)
        self.budget = min(math.ceil(self.end * (1 + CUTOFF_MARGIN)), self.n_total)
        # the cache's configurations within 5% (for the report)
        self.within_5pct = sum(1 for t in self.asc if t <= self.opt * 1.05)

    def rank(self, value):
        """0-based best-first rank of a valid value (index in the ascending
        distribution, first of equal values) -- the package's
        get_indices_in_distribution."""
        return bisect.bisect_left(self.asc, value)

    # ---------------------------------------------------- evaluation axis --
    def baseline_evals(self, fevals, include_nan, package_index):
        if include_nan:
            N = self.n_total
            wf = [None] * self.n_failed + self.asc[::-1]
        else:
            N = self.n_valid
            wf = self.asc[::-1]
        out = []
        for M in fevals:
            v = wf[rw_index(M, N, package_index)]
            if v is None:
                raise ValueError(f"{self.name}: baseline at {M} is NaN")
            out.append(v)
        return out

    def best_ranks(self, seq):
        """Per evaluation, the rank of the best valid value so far (None
        before the first valid one)."""
        out, best = [], None
        for i in seq:
            t = self.times[i]
            if t is not None and (best is None or t < best):
                best = t
            out.append(None if best is None else self.rank(best))
        return out

    def curve_evals(self, runs, fevals, ranked=False):
        """Isotonic fit of the pooled (evaluation count, rank) points of the
        runs over fevals (runs carried forward past their end), rounded and
        looked up. runs: evaluation sequences, or best_ranks() lists with
        ranked=True. The x values are the integers of fevals, so the fit is
        computed per count (sum, count) -- the same as isotonic_predict on
        the pooled points (checked in the self-test)."""
        sums = [0] * len(fevals)
        cnts = [0] * len(fevals)
        for run in runs:
            ranks = run if ranked else self.best_ranks(run)
            if not ranks:
                continue
            for j, k in enumerate(fevals):
                r = ranks[min(k, len(ranks)) - 1]
                if r is not None:
                    sums[j] += r
                    cnts[j] += 1
        ux = [k for k, c in zip(fevals, cnts) if c]
        uy = [sm / c for sm, c in zip(sums, cnts) if c]
        uw = [c for c in cnts if c]
        fit = pava_decreasing(uy, uw)
        pred = []
        for k in fevals:
            if k <= ux[0]:
                pred.append(fit[0])
            elif k >= ux[-1]:
                pred.append(fit[-1])
            else:
                i = bisect.bisect_left(ux, k)
                if ux[i] == k:
                    pred.append(fit[i])
                else:
                    x0, x1 = ux[i - 1], ux[i]
                    pred.append(fit[i - 1] + (fit[i] - fit[i - 1]) * (k - x0) / (x1 - x0))
        idx = [min(self.n_valid - 1, max(0, round(v))) for v in pred]
        return [self.asc[i] for i in idx]

    def curve_evals_pooled(self, runs, fevals):
        """The same through isotonic_predict on the pooled points."""
        xs, ys = [], []
        for seq in runs:
            ranks = self.best_ranks(seq)
            for k in fevals:
                r = ranks[min(k, len(ranks)) - 1] if ranks else None
                if r is not None:
                    xs.append(k)
                    ys.append(r)
        pred = isotonic_predict(xs, ys, fevals)
        idx = [min(self.n_valid - 1, max(0, round(v))) for v in pred]
        return [self.asc[i] for i in idx]

    def score(self, curve, base):
        ps = []
        for c, b in zip(curve, base):
            if b == self.opt:
                raise ZeroDivisionError(f"{self.name}: baseline at the optimum")
            ps.append((c - b) / (self.opt - b))
        return sum(ps) / len(ps), ps

    def score_evals(self, runs, variant):
        return self.score_evals_all(runs, [variant])[variant]

    def score_evals_all(self, runs, variants=tuple(VARIANTS), ranked=False):
        fevals = list(range(self.start, self.end + 1))
        curve = self.curve_evals(runs, fevals, ranked)
        out = {}
        for name in variants:
            v = VARIANTS[name]
            base = self.baseline_evals(fevals, v["include_nan"], v["package_index"])
            out[name] = self.score(curve, base)[0]
        return out

    # ---------------------------------------------------------- time axis --
    def time_setup(self):
        costs = self.cost_ms
        med = statistics.median(costs)
        inval = [c for c, t in zip(costs, self.times) if t is None]
        val = [c for c, t in zip(costs, self.times) if t is not None]
        if inval:  # SearchspaceStatistics.total_time_mean_per_feval
            tpf = statistics.fmean(val) + len(inval) / self.n_total * statistics.fmean(inval)
        else:
            tpf = statistics.fmean(costs)
        t0, t1 = self.start * med, self.end * med
        return med, tpf, linspace(t0, t1, TIME_RESOLUTION)

    def baseline_time(self, time_range, tpf):
        """RandomSearchCalculatedBaseline.get_curve_over_time (include_nan
        False, mean_per_feval): evaluations = max(round(t / tpf), 1), the
        red-white values there, PCHIP-smoothed over a linspace of the
        evaluations."""
        fev = [max(round(t / tpf), 1) for t in time_range]
        draws = self.baseline_evals(fev, include_nan=False, package_index=True)
        if len(fev) <= 2:
            return draws
        x, y = [fev[0]], [draws[0]]
        for f, v in zip(fev[1:], draws[1:]):
            if f > x[-1]:
                x.append(f)
                y.append(v)
        if len(x) < 2:
            return draws
        return pchip(x, y, linspace(fev[0], fev[-1], len(fev)))

    def curve_time(self, runs, time_range):
        """StochasticOptimizationAlgorithm.get_curve_over_time with the plain
        isotonic fit (see the docstring). Returns (curve, stopping index,
        runs that reach the range's end)."""
        per_run = []  # [(cumulative time, rank or None)]
        for seq in runs:
            cum, pts = 0.0, []
            for i, r in zip(seq, self.best_ranks(seq)):
                cum += self.cost_ms[i]
                pts.append((cum, r))
            per_run.append(pts)
        # highest time with a value per run; stopping point = first above
        # their median
        highest = sorted(max(t for t, r in pts if r is not None) for pts in per_run)
        med = statistics.median(highest)
        above = [h for h in highest if h > med]
        stop_time = above[0] if above else time_range[-1]
        reached = sum(1 for h in highest if h >= time_range[-1])
        # the margin window (rows where every run has NaN dropped first)
        rows = max(len(p) for p in per_run)
        margin = 0.1 + 0.25 * (len(per_run) / (rows * len(per_run)))
        lo, hi = time_range[0] * (1 - margin), time_range[-1] * (1 + margin)
        xs, ys, sparse = [], [], 0
        for pts in per_run:
            inside = [(t, r) for t, r in pts if lo <= t <= hi and r is not None]
            if len(inside) <= 1:
                # the package raises "Not enough overlap in time range and
                # time values" here; counted and kept instead
                sparse += 1
            for t, r in inside:
                xs.append(t)
                ys.append(r)
        pred = isotonic_predict(xs, ys, time_range)
        idx = [min(self.n_valid - 1, max(0, round(v))) for v in pred]
        curve = [self.asc[i] for i in idx]
        stop_index = len(time_range)
        if stop_time < time_range[-1]:
            if stop_time <= time_range[0]:
                raise ValueError(f"{self.name}: stopping point before the range")
            stop_index = next(j for j, t in enumerate(time_range) if t > stop_time)
            curve[stop_index:] = [curve[stop_index]] * (len(curve) - stop_index)
        return curve, stop_index, reached, sparse

    def score_time(self, runs):
        _, tpf, tr = self.time_setup()
        base = self.baseline_time(tr, tpf)
        curve, stop_index, reached, sparse = self.curve_time(runs, tr)
        return self.score(curve, base)[0], stop_index, reached, sparse


# ----------------------------------------------------------- reference runs --

def oracle_runs(sp):
    """Evaluates the optimum first."""
    best = min(range(sp.n_total), key=lambda i: (sp.times[i] is None, sp.times[i] or 0))
    rest = [i for i in range(sp.n_total) if i != best]
    return [[best] + rest[: sp.budget - 1]]


def python_random_runs(sp, n, seed0=1000, first=None):
    """Random sampling without replacement over the whole cache (failed
    configurations included), independent of either tool; with first, that
    configuration is evaluated first (as the tool's original) and the rest
    drawn from the others."""
    if first is None:
        return [random.Random(seed0 + k).sample(range(sp.n_total), sp.budget)
                for k in range(n)]
    others = [i for i in range(sp.n_total) if i != first]
    return [[first] + random.Random(seed0 + k).sample(others, sp.budget - 1)
            for k in range(n)]


def noise_band(sp, groups, size, seed0=100000):
    """Scores of `groups` groups of `size` independent random-search runs:
    how far from 0 a random strategy's score lands with that many seeds."""
    out = []
    for g in range(groups):
        runs = python_random_runs(sp, size, seed0 + g * size)
        out.append(sp.score_evals_all(runs))
    return out


def band_summary(xs):
    xs = sorted(xs)
    n = len(xs)
    return {"mean": statistics.fmean(xs), "sd": statistics.stdev(xs),
            "p5": xs[int(0.05 * (n - 1))], "p95": xs[int(round(0.95 * (n - 1)))],
            "groups": n}


def worst_first_runs(sp):
    """The valid configurations, slowest first."""
    order = sorted((i for i in range(sp.n_total) if sp.times[i] is not None),
                   key=lambda i: -sp.times[i])
    return [order[: sp.budget]]


# ------------------------------------------------------------------- runs --

def run_tool(tool, sp, strategy, seed):
    t0 = time.perf_counter()
    r = subprocess.run([tool, "--simulate", sp.path, "--strategy", strategy,
                        "--seed", str(seed), "--budget", str(sp.budget),
                        "--batch", "4", "--patience", "0"],
                       capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise RuntimeError(f"{sp.name} {strategy} {seed}: {r.stderr}")
    d = json.loads(r.stdout)
    orig = [i for i, t in enumerate(sp.times) if t == d["original_time"]]
    if len(orig) != 1:
        raise RuntimeError(f"{sp.name}: original not identified ({len(orig)})")
    base = sp.params[orig[0]]
    seq = []
    for m in d["moves"]:
        cfg = dict(base)
        cfg.update(m["config"])
        key = ",".join(str(cfg[p]) for p in sp.param_keys)
        if key not in sp.index:
            raise RuntimeError(f"{sp.name} {strategy} {seed}: {key} not in cache")
        i = sp.index[key]
        t = sp.times[i]
        if m["verdict"] == "verified":
            if t is None or abs(t - m["time_ms"]) > 1e-9 * t:
                raise RuntimeError(f"{sp.name}: move {key} time mismatch")
        elif t is not None:
            raise RuntimeError(f"{sp.name}: move {key} failed but valid in cache")
        seq.append(i)
    # the trace the tool prints = best so far of the mapped sequence
    best, mine = None, []
    for i in seq:
        t = sp.times[i]
        if t is not None and (best is None or t < best):
            best = t
        mine.append(best)
    if len(mine) != len(d["trace"]) or any(
            (a is None) != (b is None) or (a is not None and abs(a - b) > 1e-9 * a)
            for a, b in zip(mine, d["trace"])):
        raise RuntimeError(f"{sp.name} {strategy} {seed}: trace mismatch")
    if len(set(seq)) != len(seq):
        raise RuntimeError(f"{sp.name} {strategy} {seed}: repeated evaluation")
    return {"seq": seq, "wall": wall, "stop_reason": d["stop_reason"],
            "strategy_seconds": d["strategy_seconds"]}


_KT = None


def kt_module():
    global _KT
    if _KT is None:
        spec = importlib.util.spec_from_file_location(
            "kernel_tuner_compare", os.path.join(HERE, "kernel-tuner-compare.py"))
        _KT = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_KT)
    return _KT


def run_kt(json_path, strategy, seed, budget, goal):
    r = kt_module().run(json_path, strategy, seed, budget, goal, sequence=True)
    return r


def ensure_kernel_tuner(venv):
    """Re-execute this script in venv unless kernel_tuner (the version
    kernel-tuner-compare.py pins) imports here."""
    want = kt_module().KERNEL_TUNER_VERSION
    if kt_module().installed_version() == want:
        return
    if os.environ.get("METHODOLOGY_REEXEC"):
        sys.exit(f"kernel_tuner=={want} missing in {sys.prefix}")
    py = os.path.join(os.path.abspath(venv), "bin", "python")
    if not os.path.exists(py):
        print(f"creating virtualenv {venv}", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", venv])
    have = subprocess.run([py, "-c", "from importlib.metadata import version; "
                           "print(version('kernel_tuner'))"],
                          capture_output=True, text=True).stdout.strip()
    if have != want:
        subprocess.check_call([py, "-m", "pip", "install", "--quiet",
                               f"kernel_tuner=={want}"])
    env = dict(os.environ, METHODOLOGY_REEXEC="1", PYTHONHASHSEED="0")
    os.execve(py, [py, os.path.abspath(__file__)] + sys.argv[1:], env)


def load_runs(path):
    if path and os.path.exists(path):
        with gzip.open(path, "rt") as f:
            return json.load(f)
    return {"runs": {}}


def save_runs(path, data):
    tmp = path + ".tmp"
    with gzip.open(tmp, "wt") as f:
        json.dump(data, f, separators=(",", ":"))
    os.replace(tmp, path)


def collect(a, spaces, tool_strats, kt_strats):
    data = load_runs(a.runs)
    runs = data["runs"]

    def have(sp, tool, s, k):
        r = runs.get(sp.name, {}).get(f"{tool}:{s}", {}).get(str(k))
        return r is not None and r.get("budget") == sp.budget

    def put(sp, tool, s, k, r):
        r["budget"] = sp.budget
        runs.setdefault(sp.name, {}).setdefault(f"{tool}:{s}", {})[str(k)] = r

    seeds = range(1, a.seeds + 1)
    todo_tool = [(sp, s, k) for sp in spaces for s in tool_strats for k in seeds
                 if not have(sp, "tool", s, k)]
    todo_kt = [(sp, s, k) for sp in spaces for s in kt_strats for k in seeds
               if not have(sp, "kt", s, k)]
    last_save = time.time()
    if todo_tool:
        with cf.ThreadPoolExecutor(max(1, a.j)) as pool:
            futs = {pool.submit(run_tool, a.tool, sp, s, k): (sp, s, k)
                    for sp, s, k in todo_tool}
            for n, f in enumerate(cf.as_completed(futs), 1):
                sp, s, k = futs[f]
                r = f.result()
                put(sp, "tool", s, k, r)
                print(f"[tool {n}/{len(todo_tool)}] {sp.name} {s} seed {k}: "
                      f"{len(r['seq'])} evaluations, {r['wall']:.1f} s",
                      file=sys.stderr, flush=True)
                if time.time() - last_save > 60:
                    save_runs(a.runs, data)
                    last_save = time.time()
        save_runs(a.runs, data)
    if todo_kt:
        kt = kt_module()
        tmpdir = tempfile.mkdtemp(prefix="methodology-", dir="/tmp")
        try:
            jp = {sp.name: kt.decompress(sp.path, tmpdir) for sp in spaces}
            ctx = multiprocessing.get_context("fork")
            with cf.ProcessPoolExecutor(max(1, a.j), mp_context=ctx) as pool:
                # one strategy at a time in submission order, so a cut-off
                # run leaves whole strategies behind
                futs = {pool.submit(run_kt, jp[sp.name], s, k, sp.budget,
                                    sp.opt * 1.05): (sp, s, k)
                        for sp, s, k in todo_kt}
                for n, f in enumerate(cf.as_completed(futs), 1):
                    sp, s, k = futs[f]
                    r = f.result()
                    if "error" in r:
                        raise RuntimeError(f"{sp.name} {s} {k}: {r['error']}")
                    if r["outside_cache"]:
                        raise RuntimeError(f"{sp.name} {s} {k}: outside cache")
                    rec = {"seq": [sp.index[key] for key in r["sequence"]],
                           "wall": r["wall"], "results": r["results"]}
                    put(sp, "kt", s, k, rec)
                    print(f"[kt {n}/{len(todo_kt)}] {sp.name} {s} seed {k}: "
                          f"{len(rec['seq'])} evaluations, {r['wall']:.1f} s",
                          file=sys.stderr, flush=True)
                    if time.time() - last_save > 60:
                        save_runs(a.runs, data)
                        last_save = time.time()
        finally:
            shutil.rmtree(tmpdir, ignore_errors=True)
            save_runs(a.runs, data)
    return data


# ---------------------------------------------------------------- scoring --

def bootstrap(spaces, data, columns, seeds, n, reference="tool:agent"):
    """Seed-resampling intervals of the primary score: per column and space,
    n resamples (with replacement) of the seeds' runs; the aggregate of
    replicate b is the mean over spaces of the spaces' replicate b; and the
    difference reference - column, replicate by replicate (independent
    resamples: the two tools' seeds are not paired)."""
    reps = {}  # (col, space) -> [scores]
    for sp in spaces:
        for ci, col in enumerate(columns):
            ranks = [sp.best_ranks(data["runs"][sp.name][col][str(k)]["seq"])
                     for k in seeds]
            rng = random.Random(7919 * ci + 1)
            reps[col, sp.name] = [
                sp.score_evals_all([ranks[rng.randrange(len(ranks))]
                                    for _ in ranks], [PRIMARY], ranked=True)[PRIMARY]
                for _ in range(n)]

    def interval(xs):
        xs = sorted(xs)
        return [xs[int(0.05 * (len(xs) - 1))], xs[int(round(0.95 * (len(xs) - 1)))]]
    out = {"resamples": n, "interval": "5th-95th percentile",
           "score": {}, f"difference_{reference}_minus": {}}
    for col in columns:
        per = {sp.name: interval(reps[col, sp.name]) for sp in spaces}
        agg = [statistics.fmean(reps[col, sp.name][b] for sp in spaces) for b in range(n)]
        per["mean over spaces"] = interval(agg)
        out["score"][col] = per
        if reference in columns and col != reference:
            d = {sp.name: interval([a - b for a, b in zip(reps[reference, sp.name],
                                                           reps[col, sp.name])])
                 for sp in spaces}
            d["mean over spaces"] = interval([
                statistics.fmean(reps[reference, sp.name][b] - reps[col, sp.name][b]
                                 for sp in spaces) for b in range(n)])
            out[f"difference_{reference}_minus"][col] = d
    return out


def score_all(spaces, data, columns, seeds, time_axis, n_python_random,
              noise_groups=0):
    out, bands = {}, []
    for sp in spaces:
        fevals = list(range(sp.start, sp.end + 1))
        rec = {"file": sp.path, "configurations": sp.n_total,
               "valid": sp.n_valid, "failed": sp.n_failed,
               "optimum_ms": sp.opt, "median_ms": sp.median,
               "within_5pct": sp.within_5pct,
               "range_evaluations": [sp.start, sp.end],
               "budget": sp.budget, "strategies": {}}
        base_pkg = sp.baseline_evals(fevals, False, True)
        rec["baseline_at_range_end_ms"] = base_pkg[-1]
        rec["baseline_at_range_end_over_optimum"] = base_pkg[-1] / sp.opt
        if time_axis:
            med, tpf, tr = sp.time_setup()
            rec["time_axis"] = {"median_cost_ms": med, "time_per_feval_ms": tpf,
                                "range_ms": [tr[0], tr[-1]],
                                "points": TIME_RESOLUTION}
        groups = [(c, [data["runs"][sp.name][c][str(k)]["seq"] for k in seeds])
                  for c in columns]
        # the tool's original (its first evaluation in every run)
        firsts = {r[0] for c, rs in groups if c.startswith("tool:") for r in rs}
        if len(firsts) > 1:
            raise RuntimeError(f"{sp.name}: tool runs start differently")
        original = firsts.pop() if firsts else None
        refs = {"oracle (optimum first)": oracle_runs(sp),
                f"python random ({n_python_random} runs)":
                    python_random_runs(sp, n_python_random),
                "worst first": worst_first_runs(sp)}
        if original is not None:
            refs[f"python random, the tool's original first ({n_python_random} runs)"] = \
                python_random_runs(sp, n_python_random, first=original)
        groups += [(f"check:{name}", r) for name, r in refs.items()]
        if noise_groups:
            band = noise_band(sp, noise_groups, len(seeds))
            bands.append(band)
            rec["random_30_run_noise_band"] = {
                v: band_summary([b[v] for b in band]) for v in VARIANTS}
        for col, runs in groups:
            st = sp.score_evals_all(runs)
            st["runs"] = len(runs)
            st["evaluations_median"] = statistics.median(len(s) for s in runs)
            st["runs_ending_before_range_end"] = sum(1 for s in runs if len(s) < sp.end)
            if time_axis:
                s, stop_index, reached, sparse = sp.score_time(runs)
                st["time"] = s
                st["time_runs_reaching_range_end"] = reached
                st["time_runs_with_at_most_one_point_in_range"] = sparse
                st["time_curve_frozen_from_point"] = (
                    stop_index if stop_index < TIME_RESOLUTION else None)
            rec["strategies"][col] = st
        out[sp.name] = rec
    agg_band = None
    if bands:
        agg_band = {v: band_summary([statistics.fmean(b[g][v] for b in bands)
                                     for g in range(noise_groups)])
                    for v in VARIANTS}
    return out, agg_band


# -------------------------------------------------------------- self-test --

def self_test():
    ok = 0
    # 1. the red-white rank formula against enumerating every M-subset
    rng = random.Random(5)
    for N in range(1, 9):
        for M in range(1, N + 1):
            subsets = list(combinations(range(N), M))  # worst-first indices
            exp_wf = Fraction(sum(max(s) for s in subsets), len(subsets))
            assert exp_wf == Fraction(M * (N + 1), M + 1) - 1, (N, M)
            # the package's index is one more (before rounding / capping)
            assert Fraction(M * (N + 1), M + 1) == exp_wf + 1
            ok += 1
    assert rw_index(1, 3, True) == 2 and rw_index(1, 3, False) == 1
    # 2. exact expected best value against enumeration (values with ties and
    #    failed configurations, as sampled from the whole cache)
    for _ in range(30):
        vals = [rng.choice([1.0, 2.0, 2.0, 3.5, 7.0]) for _ in range(rng.randint(2, 7))]
        vals += [None] * rng.randint(0, 2)
        N = len(vals)
        # worst-first list with the failed ones first (include_nan=True)
        wf = sorted(range(N), key=lambda i: (vals[i] is not None, -(vals[i] or 0)))
        pos = {i: p for p, i in enumerate(wf)}
        for M in range(1, N + 1):
            total = 0
            for sub in combinations(range(N), M):
                v = [vals[i] for i in sub if vals[i] is not None]
                top = max(pos[i] for i in sub)
                # the best of the draw is the value at its highest position
                assert (min(v) if v else None) == vals[wf[top]]
                total += top
            exp = Fraction(total, math.comb(N, M))
            assert exp == Fraction(M * (N + 1), M + 1) - 1
            ok += 1
    # 3. cutoff: the package's formula on a tiny distribution, by hand
    asc = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
    # median 5.5, p=0.95 -> target 1.225: worst-first index of 1.0 is 9, the
    # optimum itself -> i = 8 -> ceil(8 / 3) = 3
    assert cutoff_fevals(asc, 0.95) == (1 + 4.5 * 0.05, 3)
    # p=0.01 -> target 5.455: first value <= it worst first is 5.0 at i = 5
    # -> ceil(5 / 6) = 1
    assert cutoff_fevals(asc, 0.01)[1] == 1
    # and i / (N + 1 - i) inverts the red-white index: after ceil(...) draws
    # the package's baseline is at or past worst-first index i
    for N in (10, 100, 4362):
        for i in range(1, N - 1):
            M = math.ceil(i / (N + 1 - i))
            assert M * (N + 1) / (M + 1) >= i - 1e-9
            ok += 1
    # 4. isotonic fit: PAVA against sklearn's docstring example, and the
    #    mean-per-x property for monotone per-run data
    y = [5, 3, 1, 2, 8, 10, 7, 9, 6, 4]  # its increasing fit, reversed
    fit = pava_decreasing(y[::-1], [1] * 10)[::-1]
    assert all(abs(a - b) < 1e-12
               for a, b in zip(fit, [2.75] * 4 + [22 / 3] * 6)), fit
    pred = isotonic_predict([1, 1, 2, 2, 3, 3], [9, 7, 6, 4, 1, 3], [0, 1, 1.5, 2, 3, 4])
    assert pred == [8, 8, 6.5, 5, 2, 2], pred
    # 5. PCHIP: reproduces data, is monotone on monotone data, linear for 2
    xs, ys = [1, 2, 4, 7, 8], [10.0, 8.0, 7.5, 3.0, 3.0]
    v = pchip(xs, ys, xs)
    assert all(abs(a - b) < 1e-12 for a, b in zip(v, ys))
    dense = pchip(xs, ys, linspace(1, 8, 200))
    assert all(dense[i] >= dense[i + 1] - 1e-12 for i in range(199))
    assert pchip([0, 2], [0.0, 4.0], [1]) == [2.0]
    # 6. the score: oracle 1, the baseline itself 0, simulated random search
    #    about 0 against the corrected baseline on a synthetic space
    class Tiny(Space):
        def __init__(self, times):
            self.name, self.times = "tiny", times
            self.asc = sorted(t for t in times if t is not None)
            self.n_valid, self.n_total = len(self.asc), len(times)
            self.n_failed = self.n_total - self.n_valid
            self.opt, self.median = self.asc[0], statistics.median(self.asc)
            self.start, self.end = cutoff_range(self.asc)
            self.budget = min(math.ceil(self.end * 1.1), self.n_total)
            self.cost_ms = [1.0] * self.n_total
    r2 = random.Random(11)
    times = [r2.lognormvariate(0, 1) for _ in range(3000)] + [None] * 300
    sp = Tiny(times)
    assert abs(sp.score_evals(oracle_runs(sp), "package") - 1) < 1e-12
    fev = list(range(sp.start, sp.end + 1))
    for trial in range(20):  # per-count fit == isotonic fit of pooled points
        rr = [r2.sample(range(sp.n_total), r2.randint(1, sp.budget))
              for _ in range(r2.randint(1, 12))]
        assert sp.curve_evals(rr, fev) == sp.curve_evals_pooled(rr, fev)
        ok += 1
    runs = python_random_runs(sp, 2000)
    s_exp = sp.score_evals(runs, "expected_rank")
    s_pkg = sp.score_evals(runs, "package")
    assert abs(s_exp) < 0.02, s_exp
    assert s_pkg < s_exp, (s_pkg, s_exp)
    assert sp.score_evals(worst_first_runs(sp), "package") < -1
    ok += 1
    # 7. against numpy / scipy / sklearn where importable (the venvs)
    try:
        import numpy as np
        from scipy.interpolate import PchipInterpolator
        from sklearn.isotonic import IsotonicRegression
    except ImportError:
        print("self-test: numpy/scipy/sklearn not importable, library "
              "comparisons skipped")
    else:
        for trial in range(50):
            n = r2.randint(3, 40)
            x = sorted(r2.sample(range(1000), n))
            y = [r2.random() for _ in range(n)]
            xn = linspace(x[0] - 5, x[-1] + 5, 97)
            a = pchip(x, y, xn)
            b = PchipInterpolator(np.array(x, float), np.array(y))(np.array(xn))
            assert max(abs(p - q) for p, q in zip(a, b)) < 1e-9
            xi = [r2.randint(0, 30) * 1.0 for _ in range(n * 3)]
            yi = [r2.randint(0, 100) * 1.0 for _ in range(n * 3)]
            ir = IsotonicRegression(increasing=False, y_min=min(yi), y_max=max(yi),
                                    out_of_bounds="clip")
            b = ir.fit(np.array(xi), np.array(yi)).predict(np.array(xn))
            a = isotonic_predict(xi, yi, xn)
            assert max(abs(p - q) for p, q in zip(a, b)) < 1e-9
            ok += 1
        print(f"self-test: PCHIP and isotonic fit match scipy {__import__('scipy').__version__} "
              f"and scikit-learn {__import__('sklearn').__version__}")
    print(f"self-test passed ({ok} checks; random on a synthetic space: "
          f"{s_exp:+.4f} against the expected-rank baseline, {s_pkg:+.4f} "
          f"against the package's)")


# ------------------------------------------------------ package cross-check --

def check_package(paths, runs_path):
    """Compares this script's range, baselines and time-axis curve with
    autotuning_methodology's own code on the same data (numpy + the package
    needed)."""
    import numpy as np
    import warnings
    warnings.filterwarnings("ignore")
    from autotuning_methodology.searchspace_statistics import SearchspaceStatistics
    from autotuning_methodology.baseline import RandomSearchCalculatedBaseline
    from autotuning_methodology.curves import StochasticOptimizationAlgorithm
    from importlib.metadata import version
    data = load_runs(runs_path) if runs_path else {"runs": {}}
    report = {"autotuning_methodology": version("autotuning_methodology"),
              "spaces": {}}
    for path in paths:
        sp = Space(path)
        st = SearchspaceStatistics.__new__(SearchspaceStatistics)
        st.minimization = True
        st.size = sp.n_total
        perf = np.array([t if t is not None else np.nan for t in sp.times])
        st.objective_performances_total = perf
        st.objective_performances_total_sorted = np.sort(perf[~np.isnan(perf)])
        st.objective_performances_total_sorted_nan = np.concatenate(
            (st.objective_performances_total_sorted, [np.nan] * sp.n_failed))
        tt = np.array(sp.cost_ms)
        st.objective_times_total = tt
        st.objective_times_total_sorted = np.sort(tt)
        s, e, ts, te = st.cutoff_point_fevals_time_start_end(
            CUTOFF_PERCENTILE_START, CUTOFF_PERCENTILE)
        med, tpf, tr = sp.time_setup()
        rec = {"range": [int(s), int(e)], "range_here": [sp.start, sp.end],
               "time_range": [float(ts), float(te)], "time_range_here": [tr[0], tr[-1]],
               "time_per_feval": float(st.get_time_per_feval("mean_per_feval")),
               "time_per_feval_here": tpf}
        assert (s, e) == (sp.start, sp.end), rec
        fev = np.arange(s, e + 1)
        for nan in (False, True):
            b = RandomSearchCalculatedBaseline(st, include_nan=nan)
            pk = b.get_curve_over_fevals(fev)
            mine = sp.baseline_evals(list(range(s, e + 1)), nan, True)
            rec[f"baseline_evals_max_abs_diff_include_nan_{nan}"] = float(
                np.max(np.abs(pk - np.array(mine))))
        b = RandomSearchCalculatedBaseline(st)
        tr_np = np.linspace(ts, te, TIME_RESOLUTION)
        pk = b.get_curve_over_time(tr_np)
        mine = sp.baseline_time(list(tr_np), tpf)
        rec["baseline_time_max_rel_diff"] = float(np.max(np.abs(pk - np.array(mine)) / pk))
        # strategy curves over time on recorded runs: the package's (bagged)
        # curve and score against this script's plain isotonic one
        cols = {}
        for col, seeds in sorted(data["runs"].get(sp.name, {}).items()):
            runs = [seeds[k]["seq"] for k in sorted(seeds, key=int)]
            L = max(len(r) for r in runs)
            x_time = np.full((L, len(runs)), np.nan)
            y = np.full((L, len(runs)), np.nan)
            for j, seq in enumerate(runs):
                cum, best = 0.0, np.nan
                for i, c in enumerate(seq):
                    cum += sp.cost_ms[c]
                    t = sp.times[c]
                    if t is not None and not (best <= t):
                        best = t
                    x_time[i, j] = cum
                    y[i, j] = best
            curve = StochasticOptimizationAlgorithm.__new__(StochasticOptimizationAlgorithm)
            curve.name = curve.display_name = col
            curve.application_name = curve.device_name = sp.name
            curve.minimization, curve.stochastic = True, True
            curve._x_time, curve._y = x_time, y
            dist = st.objective_performances_total_sorted
            scores = []
            for rep in range(3):
                try:
                    parts = curve.get_curve_over_time(tr_np, dist=dist,
                                                      confidence_level=0.95)
                except ValueError as e:
                    scores = f"the package raises: {str(e.args[0])[:60]}"
                    break
                c = np.concatenate([parts[2], parts[6]])
                std = b.get_standardised_curves(tr_np, [c], x_type="time")[0]
                scores.append(float(np.mean(std)))
            mine_score = sp.score_time(runs)[0]
            # the package's fevals-axis curve (median rank per evaluation
            # count) on the same runs, carried forward to the budget
            B = max(sp.budget, L)
            fx = np.tile(np.arange(1, B + 1, dtype=float)[:, None], (1, len(runs)))
            fy = np.full((B, len(runs)), np.nan)
            for j, seq in enumerate(runs):
                ranks = sp.best_ranks(seq)
                for i in range(B):
                    r = ranks[min(i, len(ranks) - 1)]
                    fy[i, j] = np.nan if r is None else sp.asc[r]
            curve._x_fevals, curve._y = fx, fy
            fev = np.arange(sp.start, sp.end + 1)
            parts = curve.get_curve_over_fevals(fev, dist=dist, confidence_level=0.95)
            c = np.concatenate([parts[2], parts[6]])
            std = b.get_standardised_curves(fev, [c], x_type="fevals")[0]
            cols[col] = {"package_bagged_scores": scores, "here": mine_score,
                         "evaluation_axis_package_median_curve": float(np.mean(std)),
                         "evaluation_axis_here": sp.score_evals(runs, "package")}
        rec["time_axis_scores"] = cols
        report["spaces"][sp.name] = rec
        print(sp.name, json.dumps({k: v for k, v in rec.items()
                                   if k != "time_axis_scores"}), file=sys.stderr)
    return report


# ------------------------------------------------------------------- main --

def fmt(v):
    return f"{v:.3f}".replace("-0.000", "0.000")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--check-package", metavar="JSON",
                    help="compare with autotuning_methodology's code, write JSON")
    ap.add_argument("--tool", default="build/bin/cuda-rewrite-opt")
    ap.add_argument("--tool-strategies", default=TOOL_STRATEGIES)
    ap.add_argument("--kt-strategies", default=KT_STRATEGIES)
    ap.add_argument("--venv", default="build/kernel-tuner-venv")
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--python-random-runs", type=int, default=1000)
    ap.add_argument("--no-time-axis", action="store_true")
    ap.add_argument("--bootstrap", type=int, default=0,
                    help="seed resamples for intervals of the primary score")
    ap.add_argument("--noise-groups", type=int, default=100,
                    help="groups of --seeds random-search runs whose scores "
                    "show the seed noise (0: none)")
    ap.add_argument("--score-only", action="store_true",
                    help="score the runs in --runs, run nothing")
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--runs", help="raw runs (.json.gz), read and extended")
    ap.add_argument("--out", help="JSON results")
    ap.add_argument("--md", help="Markdown table")
    ap.add_argument("spaces", nargs="*")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return
    if a.check_package:
        rep = check_package(a.spaces, a.runs)
        with open(a.check_package, "w") as f:
            json.dump(rep, f, indent=1)
        return
    if not a.spaces or not a.out or not a.runs:
        ap.error("spaces, --runs and --out are needed")
    tool_strats = [s for s in a.tool_strategies.split(",") if s]
    kt_strats = [s for s in a.kt_strategies.split(",") if s]
    if kt_strats and not a.score_only:
        ensure_kernel_tuner(a.venv)
    t0 = time.time()
    spaces = [Space(p) for p in a.spaces]
    if a.score_only:
        data = load_runs(a.runs)
    else:
        data = collect(a, spaces, tool_strats, kt_strats)
    run_wall = time.time() - t0
    columns = [f"tool:{s}" for s in tool_strats] + [f"kt:{s}" for s in kt_strats]
    seeds = list(range(1, a.seeds + 1))
    res, agg_band = score_all(spaces, data, columns, seeds, not a.no_time_axis,
                              a.python_random_runs, a.noise_groups)
    agg = {}
    for col in next(iter(res.values()))["strategies"]:
        keys = [k for k in res[next(iter(res))]["strategies"][col]
                if k in VARIANTS or k == "time"]
        agg[col] = {k: statistics.fmean(r["strategies"][col][k] for r in res.values())
                    for k in keys}
    versions = {"python": sys.version.split()[0]}
    try:
        from importlib.metadata import version
        for p in ("kernel_tuner", "numpy", "scipy", "scikit-learn"):
            try:
                versions[p] = version(p)
            except Exception:
                pass
    except Exception:
        pass
    walls = {}
    for sp in spaces:
        for col in columns:
            for k in seeds:
                walls.setdefault(col, []).append(data["runs"][sp.name][col][str(k)]["wall"])
    out = {"date": time.strftime("%Y-%m-%d"), "seeds": a.seeds,
           "methodology": {
               "package": "autotuning_methodology 1.1.0 (read, not imported)",
               "cutoff_percentile": CUTOFF_PERCENTILE,
               "cutoff_percentile_start": CUTOFF_PERCENTILE_START,
               "budget": "min(ceil(1.1 * range end), configurations) distinct "
                         "evaluations per run",
               "primary": PRIMARY,
               "variants": VARIANTS,
               "x_axis": "distinct evaluations (valid or failed); 'time': "
                         "simulated compile+verification+benchmark time, "
                         f"{TIME_RESOLUTION} points"},
           "versions": versions, "tool": a.tool,
           "tool_strategies": tool_strats, "kt_strategies": kt_strats,
           "spaces": res, "aggregate_mean_over_spaces": agg,
           "random_noise_band_aggregate": agg_band,
           "bootstrap": (bootstrap(spaces, data, columns, seeds, a.bootstrap)
                         if a.bootstrap else None),
           "median_wall_seconds_per_run": {c: statistics.median(w) for c, w in walls.items()},
           "wall_seconds": time.time() - t0, "run_wall_seconds": run_wall}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    if a.md:
        cols = columns
        names = [c.replace("tool:", "tool ").replace("kt:", "KT ") for c in cols]
        lines = ["| space | range (evaluations) | " + " | ".join(names) + " |",
                 "|---|---|" + "---|" * len(cols)]
        for name, r in res.items():
            lines.append(f"| {name} | {r['range_evaluations'][0]}-{r['range_evaluations'][1]} | "
                         + " | ".join(fmt(r["strategies"][c][PRIMARY]) for c in cols) + " |")
        lines.append("| **mean over spaces** | | " + " | ".join(
            f"**{fmt(agg[c][PRIMARY])}**" for c in cols) + " |")
        for v in VARIANTS:
            if v != PRIMARY:
                lines.append(f"| mean, baseline variant {v} | | " + " | ".join(
                    fmt(agg[c][v]) for c in cols) + " |")
        if not a.no_time_axis:
            lines.append("| mean, time axis | | " + " | ".join(
                fmt(agg[c]["time"]) for c in cols) + " |")
        # the checks, per space, in the primary variant (and expected_rank)
        checks = [c for c in next(iter(res.values()))["strategies"]
                  if c.startswith("check:")]
        lines += ["", "Checks (score in the " + PRIMARY + " variant / the "
                  "expected_rank variant):", "",
                  "| space | " + " | ".join(c[6:] for c in checks)
                  + " | 30 random runs: 5th-95th percentile of " + str(a.noise_groups)
                  + " groups | tool random | KT random_sample |",
                  "|---|" + "---|" * (len(checks) + 3)]

        def both(st):
            return f"{fmt(st[PRIMARY])} / {fmt(st['expected_rank'])}"
        for name, r in res.items():
            band = r.get("random_30_run_noise_band", {}).get(PRIMARY)
            cells = [both(r["strategies"][c]) for c in checks]
            cells.append(f"{fmt(band['p5'])} to {fmt(band['p95'])}" if band else "-")
            for c in ("tool:random", "kt:random_sample"):
                cells.append(both(r["strategies"][c]) if c in r["strategies"] else "-")
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        cells = [f"{fmt(agg[c][PRIMARY])} / {fmt(agg[c]['expected_rank'])}" for c in checks]
        cells.append(f"{fmt(agg_band[PRIMARY]['p5'])} to {fmt(agg_band[PRIMARY]['p95'])}"
                     if agg_band else "-")
        for c in ("tool:random", "kt:random_sample"):
            cells.append(f"{fmt(agg[c][PRIMARY])} / {fmt(agg[c]['expected_rank'])}"
                         if c in agg else "-")
        lines.append("| **mean over spaces** | " + " | ".join(cells) + " |")
        with open(a.md, "w") as f:
            f.write("\n".join(lines) + "\n")
    for col, v in agg.items():
        print(col, {k: round(x, 3) for k, x in v.items()})


if __name__ == "__main__":
    main()
