#!/usr/bin/env python3
"""Writes a synthetic recorded space (deterministic) for the search tests.

Three knobs shaped like a real kernel's: a block size with a sweet spot, a
tile with a strong effect that interacts with the block size, and a flag
that does little. Some points fail to build, one combination is invalid
(refused by the tool), and one variant gives wrong results.
"""
import itertools, json, math, sys

blocks = [32, 64, 128, 256, 512, 1024]
tiles = ["none", 2, 4, 8, 16]
flags = [False, True]
points = []
for b, t, f in itertools.product(blocks, tiles, flags):
    config = {}
    if b != 256: config["k.block"] = b
    if t != "none": config["k.tile"] = t
    if f: config["k.flag"] = f
    if b == 1024 and t == 16:
        points.append({"config": config, "verdict": "invalid",
                       "reason": "tile over 48 KiB of shared memory"})
        continue
    if b == 32 and t == 16:
        points.append({"config": config, "verdict": "build-failed",
                       "reason": "nvcc: too many resources"})
        continue
    if b == 64 and t == 2 and f:
        points.append({"config": config, "verdict": "rejected",
                       "reason": "buffer 0 differs"})
        continue
    tn = 1 if t == "none" else t
    time = 1.0 + 0.3 * abs(math.log2(b) - 7) ** 1.5
    time *= 4.0 / (1 + math.log2(tn)) if tn <= 8 else 1.5
    time *= 0.97 if f else 1.0
    points.append({"config": config, "verdict": "verified",
                   "time_ms": round(time, 6)})
space = {
    "format": "cuda-rewrite-opt space 1", "name": "synthetic",
    "gpu": "none (synthetic)",
    "features": {"kernels": 1, "has_reduction_loop": True, "has_loops": True},
    "knobs": [
        {"id": "k.block", "kernel": "k", "transform": "block-size",
         "role": "block-shape", "values": blocks, "default": 256},
        {"id": "k.tile", "kernel": "k", "transform": "shared-stage",
         "role": "shared-staging", "values": tiles, "default": "none"},
        {"id": "k.flag", "kernel": "k", "transform": "nvcc-flags",
         "role": "compiler-flag", "values": flags, "default": False}],
    "points": points}
json.dump(space, sys.stdout, indent=1)
print()
