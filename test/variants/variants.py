"""Shared by the variant checks (test/variants/compile-variants.py on CI,
bench/verify-variants.py on the GPU machine): which configurations to try,
and how to turn one into a built variant."""
import json
import os
import subprocess

HEADER = "// cuda-rewrite-opt: build this variant with nvcc"


def analyze(tool, path, arch="sm_90"):
    out = subprocess.run([tool, path, "--analyze", "--cuda-gpu-arch=" + arch],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"--analyze failed on {path}: {out.stderr}")
    return json.loads(out.stdout)


BAD_CONFIG = 10  # the tool's exit code for a configuration it rejects


def accepts(tool, src, cfg, arch="sm_90"):
    """True unless the tool rejects cfg before building (knobs that cannot
    be combined: two transforms remapping one kernel, a tile larger than
    shared memory, a non-square block for a transposed tile)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        cfg_path = os.path.join(d, "config.json")
        with open(cfg_path, "w") as f:
            json.dump(cfg, f)
        r = subprocess.run([tool, src, "--apply", cfg_path, "-o",
                            os.path.join(d, "v.cu"), "--cuda-gpu-arch=" + arch],
                           capture_output=True, text=True)
        return r.returncode != BAD_CONFIG


def configurations(knobs, rng, randoms, accept=None):
    """The default, each knob at both ends of its domain, and `randoms`
    random combinations, as (name, config) pairs. With accept, a random
    combination it rejects is drawn again, up to 20 times, and left out if
    none is accepted: the tool refuses those before building anything, so
    they are not variants."""
    configs = [("default", {})]
    for k in knobs:
        for v in (k["values"][0], k["values"][-1]):
            if v != k["default"] and (f"{k['id']}={json.dumps(v)}", {k["id"]: v}) not in configs:
                configs.append((f"{k['id']}={json.dumps(v)}", {k["id"]: v}))
    for i in range(randoms):
        for _ in range(20):
            cfg = {k["id"]: rng.choice(k["values"]) for k in knobs}
            if accept is None or accept(cfg):
                configs.append((f"random#{i}", cfg))
                break
    return configs


def make_variant(tool, src, cfg, workdir, arch="sm_90"):
    """Writes the variant of src for cfg into workdir. Returns
    (path, text, nvcc_flags) or raises RuntimeError."""
    cfg_path = os.path.join(workdir, "config.json")
    with open(cfg_path, "w") as f:
        json.dump(cfg, f)
    variant = os.path.join(workdir, os.path.basename(src))
    r = subprocess.run([tool, src, "--apply", cfg_path, "-o", variant,
                        "--cuda-gpu-arch=" + arch],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"--apply failed ({r.returncode}): {r.stderr.strip()}")
    with open(variant) as f:
        text = f.read()
    first = text.split("\n", 1)[0]
    flags = first[len(HEADER):].split() if first.startswith(HEADER) else []
    return variant, text, flags


def nvcc_command(nvcc, src, variant, out, flags, arch="sm_90", compile_only=True):
    cmd = [nvcc, f"-arch={arch}", "-O3", variant, "-o", out,
           "-I", os.path.dirname(os.path.abspath(src))] + flags
    if compile_only:
        cmd.insert(1, "-c")
    return cmd
