"""Shared by the variant checks (test/variants/compile-variants.py on CI,
bench/verify-variants.py on the GPU machine): which configurations to try,
and how to turn one into a built variant."""
import datetime
import json
import os
import random
import re
import subprocess

HEADER = "// cuda-rewrite-opt: build this variant with nvcc"
COPY_HEADER = "// cuda-rewrite-opt: this variant also rewrites "


def analyze(tool, path, arch="sm_90"):
    out = subprocess.run([tool, path, "--analyze", "--cuda-gpu-arch=" + arch],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"--analyze failed on {path}: {out.stderr}")
    return json.loads(out.stdout)


BAD_CONFIG = 10  # the tool's exit code for a configuration it rejects


def apply_config(tool, src, cfg, out, arch="sm_90"):
    """Runs the tool's --apply for cfg, writing the variant to out; returns
    the finished process (returncode BAD_CONFIG: the tool rejected cfg)."""
    cfg_path = os.path.join(os.path.dirname(out), "config.json")
    with open(cfg_path, "w") as f:
        json.dump(cfg, f)
    return subprocess.run([tool, src, "--apply", cfg_path, "-o", out,
                           "--cuda-gpu-arch=" + arch],
                          capture_output=True, text=True)


def with_requirements(knobs, cfg, pick):
    """cfg with the knobs its non-default values require ("requires" in the
    model: a tile sized by a block chosen at run time needs the block knob
    set) set to a non-default value pick(knob) where cfg leaves them at
    their defaults."""
    by_id = {k["id"]: k for k in knobs}
    out = dict(cfg)
    for i, v in cfg.items():
        k = by_id.get(i)
        if not k or v == k["default"]:
            continue
        for r in k.get("requires", []):
            rk = by_id.get(r)
            if rk and out.get(r, rk["default"]) == rk["default"]:
                out[r] = pick(rk)
    return out


def first_other(k):
    return next(v for v in k["values"] if v != k["default"])


def configurations(knobs):
    """The default and each knob at both ends of its domain (with what it
    requires), as (name, config) pairs (sample_variants adds the random
    combinations)."""
    configs = [("default", {})]
    for k in knobs:
        for v in (k["values"][0], k["values"][-1]):
            entry = (f"{k['id']}={json.dumps(v)}",
                     with_requirements(knobs, {k["id"]: v}, first_other))
            if v != k["default"] and entry not in configs:
                configs.append(entry)
    return configs


def make_variant(tool, src, cfg, workdir, arch="sm_90"):
    """Writes the variant of src for cfg into workdir. Returns
    (path, text, nvcc_flags) or raises RuntimeError."""
    variant = os.path.join(workdir, os.path.basename(src))
    r = apply_config(tool, src, cfg, variant, arch)
    if r.returncode != 0:
        raise RuntimeError(f"--apply failed ({r.returncode}): {r.stderr.strip()}")
    return read_variant(variant)


def read_variant(variant):
    """(path, text, nvcc_flags) of a variant the tool wrote: the flags are
    those its first line names."""
    with open(variant) as f:
        text = f.read()
    first = text.split("\n", 1)[0]
    flags = first[len(HEADER):].split() if first.startswith(HEADER) else []
    return variant, text, flags


def source_of(text):
    """The variant's text without the tool's header lines (build flags,
    rewritten copies)."""
    while text.startswith(HEADER) or text.startswith(COPY_HEADER):
        text = text.split("\n", 1)[1] if "\n" in text else ""
    return text


def nvcc_command(nvcc, src, variant, out, flags, arch="sm_90", compile_only=True):
    cmd = [nvcc, f"-arch={arch}", "-O3", variant, "-o", out,
           "-I", os.path.dirname(os.path.abspath(src))] + flags
    if compile_only:
        cmd.insert(1, "-c")
    return cmd


DRAWS = 20  # candidates drawn for one random combination before it is left out


class Variant:
    def __init__(self, src, name, cfg, path=None, text=None, flags=None, error=None):
        self.src, self.name, self.cfg = src, name, cfg
        self.path, self.text, self.flags, self.error = path, text, flags, error


def sample_variants(tool, src, seed, randoms, workdir, arch="sm_90", only=None):
    """The sample of src's variants -- the default, each knob at both ends,
    `randoms` random combinations -- written under workdir by one
    --apply-each (one parse for all of them). A random combination the tool
    rejects (exit BAD_CONFIG: knobs that cannot be combined) is replaced by
    the next of its DRAWS candidates, drawn up front with a per-file seed.

    `only` (a regular expression over knob ids) focuses the sample on the
    knobs it matches: each of their values other than the default, and
    random combinations of all knobs in which one of them is not at its
    default; a file without such a knob gets no variant but the default."""
    try:
        model = analyze(tool, src, arch)
    except RuntimeError as e:
        return [Variant(src, "analyze", {}, error=str(e))]
    rng = random.Random(f"{seed}:{os.path.basename(src)}")
    if only is None:
        named = configurations(model["knobs"])
        focus = []
    else:
        focus = [k for k in model["knobs"] if re.search(only, k["id"])]
        named = [("default", {})] + [
            (f"{k['id']}={json.dumps(v)}",
             with_requirements(model["knobs"], {k["id"]: v}, first_other))
            for k in focus for v in k["values"] if v != k["default"]]

    def draw():
        cfg = {k["id"]: rng.choice(k["values"]) for k in model["knobs"]}
        if focus:
            # The others at their defaults half the time: fewer of the
            # combinations the tool rejects (two knobs remapping a kernel).
            cfg = {i: v for i, v in cfg.items() if rng.random() < 0.5}
            k = rng.choice(focus)
            cfg[k["id"]] = rng.choice([v for v in k["values"] if v != k["default"]])
        return with_requirements(
            model["knobs"], cfg,
            lambda r: rng.choice([v for v in r["values"] if v != r["default"]]))
    some = model["knobs"] if only is None else focus
    drawn = [[draw() for _ in range(DRAWS)]
             for _ in range(randoms if some else 0)]
    configs = [cfg for _, cfg in named] + [cfg for slot in drawn for cfg in slot]
    with open(os.path.join(workdir + ".json"), "w") as f:
        json.dump(configs, f)
    r = subprocess.run([tool, src, "--apply-each", workdir + ".json", "-o", workdir,
                        "--cuda-gpu-arch=" + arch], capture_output=True, text=True)
    if r.returncode != 0:
        return [Variant(src, "apply-each", {}, error=f"--apply-each failed "
                        f"({r.returncode}): {r.stderr.strip()}")]
    results = [json.loads(line) for line in r.stdout.splitlines()]

    def variant(name, cfg, res):
        if res["exit_code"] != 0:
            return Variant(src, name, cfg, error=f"--apply failed ({res['exit_code']}): {res['error']}")
        path, text, flags = read_variant(res["file"])
        if name == "default":
            with open(src) as f:
                if f.read() != text:
                    return Variant(src, name, cfg, error="the default configuration changed the source")
        return Variant(src, name, cfg, path, text, flags)

    variants = [variant(name, cfg, res) for (name, cfg), res in zip(named, results)]
    for i, slot in enumerate(drawn):
        base = len(named) + i * DRAWS
        for j, cfg in enumerate(slot):
            if results[base + j]["exit_code"] != BAD_CONFIG:
                variants.append(variant(f"random#{i}", cfg, results[base + j]))
                break
    return variants


def machine(tools=("nvcc",)):
    """The GPU, driver, the last --version line of each tool, and the date
    (UTC), for the results files of the GPU scripts."""
    def run(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
        except OSError:
            return ""
    info = {"gpu": run(["nvidia-smi", "--query-gpu=name,driver_version",
                        "--format=csv,noheader"])}
    for tool in tools:
        lines = run([tool, "--version"]).splitlines()
        info[tool.replace("-", "_")] = lines[-1] if lines else ""
    info["date"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return info
