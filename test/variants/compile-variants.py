#!/usr/bin/env python3
"""Every variant compiles: for each CUDA file, applies a sample of
configurations -- the default, each knob at the ends of its domain, and
random combinations (fixed seed) -- and compiles each variant with
`nvcc -arch=sm_90 -c` plus the variant's own nvcc flags. A variant that does
not compile is a bug in a transform. Also checks that the default
configuration reproduces each file byte for byte.

    compile-variants.py --tool build/bin/cuda-rewrite-opt FILE.cu...
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from variants import accepts, analyze, configurations, make_variant, nvcc_command  # noqa: E402


def build(tool, nvcc, arch, src, name, cfg, workdir):
    try:
        variant, text, flags = make_variant(tool, src, cfg, workdir, arch)
    except RuntimeError as e:
        return str(e)
    if name == "default":
        with open(src) as f:
            if f.read() != text:
                return "the default configuration changed the source"
    c = subprocess.run(nvcc_command(nvcc, src, variant, os.devnull, flags, arch),
                       capture_output=True, text=True)
    if c.returncode != 0:
        return "nvcc failed:\n" + c.stderr.strip() + "\n--- variant:\n" + text
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--random", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    jobs = []
    for src in args.files:
        model = analyze(args.tool, src)
        for name, cfg in configurations(
                model["knobs"], rng, args.random,
                accept=lambda c, s=src: accepts(args.tool, s, c)):
            jobs.append((src, name, cfg))

    failures = []

    def run(job):
        src, name, cfg = job
        with tempfile.TemporaryDirectory(prefix="cro-variant-") as d:
            return job, build(args.tool, args.nvcc, args.arch, src, name, cfg, d)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        for (src, name, cfg), err in pool.map(run, jobs):
            status = "ok" if err is None else "FAIL"
            print(f"{status}: {src} [{name}]", flush=True)
            if err:
                failures.append(f"{src} [{name}] {json.dumps(cfg)}\n{err}")
    for f in failures:
        print("\n" + f)
    print(f"{len(jobs) - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
