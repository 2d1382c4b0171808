#!/usr/bin/env python3
"""The memory-hierarchy targets of issue 4, measured on the GPU machine.

For naive SGEMM, transpose and the 2D 5-point stencil, builds the original
and every variant of a small configuration grid (block size x the memory
transforms), runs each under the measurement library (CUPTI replays after
an L2 flush, the program's own CPU check must print PASSED), re-measures the
fastest few interleaved with the original, checks them at an odd size too,
and compares the best with the ceilings measured in the same session
(bench/ceilings.cu: cuBLAS SGEMM, device copy bandwidth).

    python3 bench/memory-targets.py --tool build/bin/cuda-rewrite-opt \\
        --lib build/lib/libcro-inject.so --ceilings ceilings.json --out t.json

The search here is a fixed grid, not the search agent (issue 6): it says
what the transforms can reach, not how fast a search finds it.
"""
import argparse
import concurrent.futures
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "test", "variants"))
from variants import make_variant, nvcc_command  # noqa: E402


def grid(**axes):
    keys = list(axes)
    for values in itertools.product(*(axes[k] for k in keys)):
        yield {k: v for k, v in zip(keys, values) if v is not None}


def sgemm_configs():
    yield {"sgemm.shared_stage": 16}
    yield {"sgemm.shared_stage": 32, "sgemm.shared_pad": 1}
    yield {"sgemm.register_tile": "4x4"}
    for block, tile, tk, pad in itertools.product(
            [[16, 16], [32, 8], [16, 8]], ["4x4", "8x4", "4x8", "8x8"],
            [8, 16, 32], [0, 1]):
        yield {"sgemm.block": block, "sgemm.register_tile": tile,
               "sgemm.shared_stage": tk, "sgemm.shared_pad": pad}


def transpose_configs():
    for block in ([16, 16], [32, 32], [8, 8]):
        yield {"transpose.block": block}
        for pad, rows in itertools.product((0, 1), ("none", "y2", "y4", "y8")):
            cfg = {"transpose.block": block, "transpose.shared_stage": "tile",
                   "transpose.shared_pad": pad}
            if rows != "none":
                cfg["transpose.coarsen"] = rows
            yield cfg
    for block, c in itertools.product(([16, 16], [32, 32]), ("y2", "y4", "x2")):
        yield {"transpose.block": block, "transpose.coarsen": c}


def stencil_configs():
    for block in ([32, 4], [32, 8], [32, 16], [64, 4], [128, 2], [256, 1]):
        yield {"jacobi.block": block}
        yield {"jacobi.block": block, "jacobi.read_only": True}
        for c in ("y2", "y4"):
            yield {"jacobi.block": block, "jacobi.read_only": True,
                   "jacobi.coarsen": c}
        for pad in (0, 1):
            yield {"jacobi.block": block, "jacobi.shared_stage": "halo",
                   "jacobi.shared_pad": pad}


TARGETS = [
    {"name": "sgemm", "src": "bench/kernels/sgemm.cu", "kernel": "sgemm",
     "args": ["2048"], "sizes": [["1024"], ["2048"], ["4096"]],
     "odd": ["1000"], "sanitize": ["200"], "configs": sgemm_configs,
     "unit": "GFLOP/s", "work": lambda a: 2 * int(a[0]) ** 3},
    {"name": "transpose", "src": "bench/kernels/transpose.cu",
     "kernel": "transpose", "args": ["8192"], "sizes": [["8192"]],
     "odd": ["1000", "999"], "sanitize": ["300", "200"],
     "configs": transpose_configs, "unit": "GB/s",
     "work": lambda a: 2 * 4 * int(a[0]) ** 2},
    {"name": "stencil2d", "src": "bench/kernels/stencil2d.cu",
     "kernel": "jacobi", "args": ["4096"], "sizes": [["4096"]],
     "odd": ["1001", "997"], "sanitize": ["300", "200"],
     "configs": stencil_configs, "unit": "GB/s",
     "work": lambda a: 2 * 4 * int(a[0]) ** 2},
]


def run_timed(exe, args, kernel, lib, timeout=300):
    """Runs exe once under the measurement library: (passed, median ms,
    replays, registers, output tail)."""
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as f:
        out = f.name
    env = dict(os.environ, CUDA_INJECTION64_PATH=lib, CRO_OUT=out,
               CRO_KERNELS=kernel, CRO_MAX_LAUNCHES="1", CRO_MAX_CAPTURES="0",
               CRO_FLUSH_L2="1")
    try:
        r = subprocess.run([exe] + args, capture_output=True, text=True,
                           timeout=timeout, env=env)
        passed = r.returncode == 0 and "PASSED" in r.stdout
        tail = (r.stdout + r.stderr)[-300:]
    except subprocess.TimeoutExpired:
        passed, tail = False, "timeout"
    times, regs = [], None
    try:
        with open(out) as f:
            for line in f:
                ev = json.loads(line)
                if ev.get("event") == "replay":
                    times += ev["times_ms"]
                    regs = ev.get("registers")
    except (OSError, json.JSONDecodeError):
        pass
    os.unlink(out)
    return passed, (statistics.median(times) if times else None), len(times), regs, tail


def run_check(exe, args, timeout=300):
    try:
        r = subprocess.run([exe] + args, capture_output=True, text=True,
                           timeout=timeout)
        return r.returncode == 0 and "PASSED" in r.stdout
    except subprocess.TimeoutExpired:
        return False


def sanitize(exe, args, tool):
    sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    r = subprocess.run([sanitizer, "--tool", tool, "--error-exitcode", "99",
                        exe] + args, capture_output=True, text=True, timeout=600)
    summary = [ln for ln in (r.stdout + r.stderr).splitlines()
               if "SUMMARY" in ln or "PASSED" in ln or "FAILED" in ln]
    return {"tool": tool, "args": args, "exit": r.returncode,
            "clean": r.returncode == 0, "summary": summary}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--ceilings", required=True)
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--reruns", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    with open(args.ceilings) as f:
        ceilings = json.load(f)
    work = tempfile.mkdtemp(prefix="cro-targets-")
    results = {"ceilings": ceilings, "targets": []}

    for t in TARGETS:
        if args.only and t["name"] not in args.only.split(","):
            continue
        print(f"== {t['name']}", flush=True)
        configs = [{}] + list(t["configs"]())
        entries = []
        for i, cfg in enumerate(configs):
            d = os.path.join(work, f"{t['name']}-{i}")
            os.makedirs(d)
            e = {"config": cfg, "dir": d}
            try:
                e["variant"], _, e["flags"] = make_variant(args.tool, t["src"], cfg, d)
            except RuntimeError as err:
                e["rejected"] = str(err)
            entries.append(e)

        def build(e):
            if "rejected" in e:
                return
            exe = os.path.join(e["dir"], "prog")
            r = subprocess.run(nvcc_command(args.nvcc, t["src"], e["variant"], exe,
                                            e["flags"], compile_only=False),
                               capture_output=True, text=True)
            if r.returncode == 0:
                e["exe"] = exe
            else:
                e["build_error"] = r.stderr[-500:]
        with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
            list(pool.map(build, entries))

        for e in entries:
            if "exe" not in e:
                continue
            passed, ms, n, regs, tail = run_timed(e["exe"], t["args"], t["kernel"], args.lib)
            e.update(passed=passed, ms=ms, replays=n, registers=regs)
            if not passed:
                e["output"] = tail
            print(f"  {json.dumps(e['config'])}: {ms} ms, passed={passed}", flush=True)

        original = entries[0]
        ok = [e for e in entries[1:] if e.get("passed") and e.get("ms")]
        ok.sort(key=lambda e: e["ms"])
        finalists = ok[:args.top]
        # Interleaved re-runs: original, finalist 1, ..., again.
        for e in [original] + finalists:
            e["run_ms"] = [e["ms"]]
        for _ in range(args.reruns):
            for e in [original] + finalists:
                passed, ms, _, _, _ = run_timed(e["exe"], t["args"], t["kernel"], args.lib)
                e["passed"] = e["passed"] and passed
                if ms:
                    e["run_ms"].append(ms)
        for e in [original] + finalists:
            e["median_ms"] = statistics.median(e["run_ms"])
        finalists = [e for e in finalists if e["passed"]]
        finalists.sort(key=lambda e: e["median_ms"])
        best = finalists[0] if finalists else original
        # The best variant must also be right where the tiles do not divide
        # the domain.
        best["odd_size_passed"] = run_check(best["exe"], t["odd"])

        per_size = []
        for size in t["sizes"]:
            row = {"args": size}
            for label, e in (("original", original), ("best", best)):
                runs = []
                passed = True
                for _ in range(1 + args.reruns):
                    p, ms, _, _, _ = run_timed(e["exe"], size, t["kernel"], args.lib)
                    passed &= p
                    if ms:
                        runs.append(ms)
                ms = statistics.median(runs) if runs else None
                row[label] = {"ms": ms, "runs_ms": runs, "passed": passed,
                              "rate": t["work"](size) / (ms * 1e-3) / 1e9 if ms else None}
            if t["name"] == "sgemm":
                cub = [s for s in ceilings["sgemm"] if s["n"] == int(size[0])]
                if cub:
                    row["cublas_gflops"] = cub[0]["gflops"]
                    row["fraction_of_cublas"] = row["best"]["rate"] / cub[0]["gflops"]
            else:
                row["copy_gbps"] = ceilings["copy_gbps"]
                row["fraction_of_copy"] = row["best"]["rate"] / ceilings["copy_gbps"]
            per_size.append(row)
            print(f"  size {size}: {json.dumps(row)}", flush=True)

        checks = []
        if any(k.endswith("shared_stage") for k in best["config"]):
            for tool in ("racecheck", "memcheck"):
                checks.append(sanitize(best["exe"], t["sanitize"], tool))
        results["targets"].append({
            "name": t["name"], "kernel": t["kernel"], "unit": t["unit"],
            "search_args": t["args"], "evaluated": len(entries) - 1,
            "rejected_by_tool": sum(1 for e in entries if "rejected" in e),
            "build_failures": sum(1 for e in entries if "build_error" in e),
            "check_failures": sum(1 for e in entries if "exe" in e and not e.get("passed")),
            "best_config": best["config"], "best_registers": best.get("registers"),
            "odd_size_passed": best["odd_size_passed"],
            "sizes": per_size, "sanitizer": checks,
            "all": [{k: e.get(k) for k in ("config", "ms", "passed", "registers",
                                             "rejected", "build_error", "output",
                                             "run_ms")} for e in entries]})
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
