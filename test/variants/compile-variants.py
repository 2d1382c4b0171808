#!/usr/bin/env python3
"""Every variant compiles: for each CUDA file, applies a sample of
configurations -- the default, each knob at the ends of its domain, and
random combinations (fixed seed per file) -- and compiles each variant with
`nvcc -arch=sm_90 -c` plus the variant's own nvcc flags. A variant that does
not compile is a bug in a transform. Also checks that the default
configuration reproduces each file byte for byte.

Builds are shared where they would repeat one another: a variant whose text
and flags equal an earlier one's is not built again, and a variant whose
source is the original's (only its nvcc flags differ, e.g. -maxrregcount) is
built once per distinct set of flags for the whole run -- the flag is what
it tests, and no transform touched the source.

    compile-variants.py --tool build/bin/cuda-rewrite-opt FILE.cu...
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from variants import nvcc_command, sample_variants, source_of  # noqa: E402


def build_key(v, original):
    """Variants with one key need one build."""
    flags = tuple(v.flags)
    if flags and source_of(v.text) == original:
        return ("flags only", flags)
    return (v.src, hashlib.sha256(v.text.encode()).hexdigest(), flags)


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

    with tempfile.TemporaryDirectory(prefix="cro-variants-") as root, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        per_file = pool.map(
            lambda ix: sample_variants(args.tool, ix[1], args.seed, args.random,
                                       os.path.join(root, str(ix[0])), args.arch),
            enumerate(args.files))
        variants = [v for vs in per_file for v in vs]

        originals = {}
        builds = {}  # key -> the variant that is built for it
        for v in variants:
            if v.error is None:
                if v.src not in originals:
                    with open(v.src) as f:
                        originals[v.src] = f.read()
                builds.setdefault(build_key(v, originals[v.src]), v)

        def compile_one(v):
            c = subprocess.run(nvcc_command(args.nvcc, v.src, v.path, os.devnull, v.flags, args.arch),
                               capture_output=True, text=True)
            return None if c.returncode == 0 else \
                "nvcc failed:\n" + c.stderr.strip() + "\n--- variant:\n" + v.text

        built = dict(zip(builds.keys(), pool.map(compile_one, builds.values())))

    failures = []
    for v in variants:
        if v.error is None:
            key = build_key(v, originals[v.src])
            err, first = built[key], builds[key]
            shared = "" if first is v else f" (built as {first.src} [{first.name}])"
        else:
            err, shared = v.error, ""
        print(f"{'ok' if err is None else 'FAIL'}: {v.src} [{v.name}]{shared}")
        if err:
            failures.append(f"{v.src} [{v.name}] {json.dumps(v.cfg)}\n{err}")
    for f in failures:
        print("\n" + f)
    print(f"{len(variants) - len(failures)} passed, {len(failures)} failed "
          f"({len(builds)} nvcc builds)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
