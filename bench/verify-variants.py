#!/usr/bin/env python3
"""Every variant computes the same results (run on the GPU machine): for each
program (a .cu with a main and its own CPU reference check), builds the
original and a sample of variants -- the default, each knob at both ends of
its domain, random combinations with a fixed seed -- with nvcc, runs each, and
records whether it exits 0 and prints PASSED.

    python3 bench/verify-variants.py --tool build/bin/cuda-rewrite-opt \\
        --out results.json bench/kernels/*.cu examples/*.cu
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "test", "variants"))
from variants import machine, nvcc_command, sample_variants  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--random", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--run-jobs", type=int, default=4)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--commit", default="")
    ap.add_argument("--out", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="cro-verify-")
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        samples = pool.map(
            lambda ix: sample_variants(args.tool, ix[1], args.seed, args.random,
                                       os.path.join(work, str(ix[0]))),
            enumerate(args.files))
        jobs = [{"program": os.path.basename(v.src), "src": v.src, "name": v.name,
                 "config": v.cfg, "variant": v}
                for vs in samples for v in vs]

    def build(i_job):
        i, job = i_job
        v = job.pop("variant")
        if v.error is not None:
            return i, {"built": False, "error": v.error}
        exe = os.path.join(os.path.dirname(v.path), "prog")
        c = subprocess.run(nvcc_command(args.nvcc, v.src, v.path, exe, v.flags,
                                        compile_only=False),
                           capture_output=True, text=True)
        if c.returncode != 0:
            return i, {"built": False, "error": c.stderr[-2000:]}
        return i, {"built": True, "exe": exe, "flags": v.flags}

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        for i, r in pool.map(build, enumerate(jobs)):
            jobs[i].update(r)
    build_s = time.time() - t0

    def run(i_job):
        i, job = i_job
        if not job.get("built"):
            return i, {"passed": False}
        try:
            p = subprocess.run([job["exe"]], capture_output=True, text=True,
                               timeout=args.timeout)
            out = (p.stdout + p.stderr).strip().splitlines()
            last = out[-1] if out else ""
            return i, {"exit_code": p.returncode, "output": last,
                       "passed": p.returncode == 0 and "PASSED" in last}
        except subprocess.TimeoutExpired:
            return i, {"exit_code": None, "output": "timeout", "passed": False}

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.run_jobs) as pool:
        for i, r in pool.map(run, enumerate(jobs)):
            jobs[i].update(r)
    run_s = time.time() - t0

    for job in jobs:
        job.pop("exe", None)
        job.pop("src", None)
    passed = sum(1 for j in jobs if j.get("passed"))
    result = {"machine": machine(("nvcc",)), "commit": args.commit, "seed": args.seed,
              "build_seconds": round(build_s, 1), "run_seconds": round(run_s, 1),
              "variants": jobs, "passed": passed, "total": len(jobs)}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    for j in jobs:
        if not j.get("passed"):
            print(f"FAIL {j['program']} [{j['name']}] {json.dumps(j['config'])}: "
                  f"{j.get('error', j.get('output', ''))[:300]}")
    print(f"{passed} passed, {len(jobs) - passed} failed "
          f"(build {build_s:.0f} s, run {run_s:.0f} s)")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if passed == len(jobs) else 1)


if __name__ == "__main__":
    main()
