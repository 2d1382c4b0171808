#!/usr/bin/env python3
"""Converts a Kernel Tuner cache file (brute-forced, .json or .json.gz) into
this tool's recorded-space format, so that --simulate can run its strategies
on spaces recorded by others (bench/search-efficiency.py).

Mapping:
- every entry of "tune_params" becomes a knob (role "other": the tool cannot
  know which parameter is a block size, so no hardware limit is applied);
- every cache entry becomes a point: a numeric "time" is "verified" with
  time_ms = time (Kernel Tuner's objective, ms); "CompilationFailedConfig"
  is "build-failed", "RuntimeFailedConfig" is "run-failed", any other string
  (e.g. "InvalidConfig") is "invalid";
- configurations absent from the cache were invalid (Kernel Tuner's
  restrictions) and stay absent: the simulation treats them as invalid;
- a recorded space needs an original (the point every knob's default names):
  the verified configuration of median time, so that no strategy starts at
  the optimum.
"""
import argparse, gzip, json, os, statistics, sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def convert(kt, name):
    keys = kt["tune_params_keys"]
    params = kt["tune_params"]
    verdicts = {"CompilationFailedConfig": "build-failed",
                "RuntimeFailedConfig": "run-failed"}
    points = []
    for entry in kt["cache"].values():
        config = {k: entry[k] for k in keys}
        t = entry.get("time")
        if isinstance(t, (int, float)) and t > 0:
            points.append({"config": config, "verdict": "verified",
                           "time_ms": float(t)})
        else:
            points.append({"config": config,
                           "verdict": verdicts.get(str(t), "invalid"),
                           "reason": str(t)})
    verified = sorted((p for p in points if p["verdict"] == "verified"),
                      key=lambda p: p["time_ms"])
    if not verified:
        sys.exit(f"{name}: no verified configuration")
    original = verified[(len(verified) - 1) // 2]["config"]
    knobs = [{"id": k, "kernel": kt.get("kernel_name", ""),
              "transform": "kernel-tuner", "role": "other",
              "values": params[k], "default": original[k]} for k in keys]
    size = 1
    for k in keys:
        size *= len(params[k])
    return {"format": "cuda-rewrite-opt space 1", "name": name,
            "file": kt.get("kernel_name", ""),
            "gpu": kt.get("device_name", ""),
            "source": "Kernel Tuner cache (FAIR Benchmark Hub for Auto-Tuning)",
            "product_size": size, "knobs": knobs,
            "hardware": {"max_threads_per_block": 1024,
                         "max_shared_per_block": 49152,
                         "registers_per_block": 65536},
            "points": points}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cache", help="Kernel Tuner cache (.json or .json.gz)")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    name = os.path.basename(a.cache)
    for suffix in (".gz", ".json"):
        name = name[:-len(suffix)] if name.endswith(suffix) else name
    rec = convert(load(a.cache), name)
    with open(a.out, "w") as f:
        json.dump(rec, f)
    valid = sum(1 for p in rec["points"] if p["verdict"] != "invalid")
    print(f"{name}: {valid} valid of {rec['product_size']} "
          f"({100 * valid / rec['product_size']:.0f}%)")


if __name__ == "__main__":
    main()
