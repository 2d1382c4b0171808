"""Writes small files in Kernel Tuner's formats into DIR: a brute-forced
cache (conv_A6000.json, and .json.gz), a T4 results file and a cache with
no successful configuration (no_time.json)."""
import gzip, json, os, sys

out = sys.argv[1]
params = {"block_size_x": [16, 32, 64, 128], "block_size_y": [1, 2, 4],
          "tile": [1, 2]}
cache = {}
for bx in params["block_size_x"]:
    for by in params["block_size_y"]:
        for t in params["tile"]:
            if bx * by > 256:          # a restriction: absent from the cache
                continue
            e = {"block_size_x": bx, "block_size_y": by, "tile": t}
            if bx == 16 and t == 2:
                e["time"] = "CompilationFailedConfig"   # Kernel Tuner <= 1.3
            elif bx == 128 and by == 2 and t == 1:
                e["__error__"] = "RuntimeFailedConfig"  # Kernel Tuner >= 1.4
            else:
                e["time"] = 0.5 + abs(bx - 64) / 64 + abs(by - 2) + (t == 1)
            cache[f"{bx},{by},{t}"] = e
doc = {"device_name": "NVIDIA RTX A6000", "kernel_name": "conv",
       "problem_size": [4096, 4096], "tune_params_keys": list(params),
       "tune_params": params, "objective": "time", "cache": cache}
text = json.dumps(doc)
open(os.path.join(out, "conv_A6000.json"), "w").write(text)
with gzip.open(os.path.join(out, "conv_A6000.json.gz"), "wt") as f:
    f.write(text)

def t4(config, invalidity, value=None):
    m = [{"name": "time", "value": value, "unit": "ms"}] if value else []
    return {"timestamp": "2024-01-01 00:00:00.000000+00:00",
            "configuration": config, "times": {"runtimes": []},
            "invalidity": invalidity, "correctness": 1,
            "measurements": m, "objectives": ["time"]}
results = [t4({"block_size_x": 32, "unroll": 1}, "correct", 3.0),
           t4({"block_size_x": 64, "unroll": 1}, "correct", 1.5),
           t4({"block_size_x": 64, "unroll": 2}, "compile"),
           t4({"block_size_x": 32, "unroll": 2}, "constraints")]
json.dump({"results": results, "schema_version": "1.0.0",
           "metadata": {"timeunit": "milliseconds"}},
          open(os.path.join(out, "results_T4.json"), "w"))
json.dump({"tune_params": {"a": [1, 2]}, "tune_params_keys": ["a"],
           "cache": {"1": {"a": 1, "time": "InvalidConfig"}}},
          open(os.path.join(out, "no_time.json"), "w"))
