#!/usr/bin/env python3
"""The legality self-check (run on the GPU machine): for each program (a .cu
with a main and its own CPU reference check), a sample of variants -- the
default, each knob at both ends of its domain, random combinations with a
fixed seed (with --knobs REGEX: every value of the matching knobs, and
random combinations with one of them set) -- each run on two inputs:

  A  the program's default run;
  B  its second input from bench/selfcheck/inputs.json (other sizes where the
     program takes them) with its rand() data reseeded (selfcheck/reseed.c).

A variant passes when, on both inputs, the program's own check passes (exit
0 and PASSED in its last line) and the tool's --measure finds every captured
output of every target launch equal to the original's on the same input;
and compute-sanitizer memcheck reports no error on input B (the smaller,
oddly sized one). The originals run first on both inputs: an original that
fails its check on B makes the input, not its variants, wrong, and is
reported as such.

    python3 bench/legality-selfcheck.py --tool build/bin/cuda-rewrite-opt \\
        --out selfcheck.json --time-limit 500 test/generality/programs/*/*.cu
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "variants"))
from variants import machine, nvcc_command, sample_variants  # noqa: E402


def program_name(src):
    return os.path.splitext(os.path.basename(src))[0]


def own_check(proc):
    out = (proc.stdout + proc.stderr).strip().splitlines()
    last = out[-1] if out else ""
    return proc.returncode == 0 and "PASSED" in last, last


class Checker:
    def __init__(self, args, inputs, shim, work):
        self.args, self.inputs, self.shim, self.work = args, inputs, shim, work
        self.cache = os.path.join(work, "build-cache")
        self.deadline = time.time() + args.time_limit if args.time_limit else None

    def args_of(self, src, which):
        if which == "A":
            return ""
        return self.inputs.get(program_name(src), {}).get("args", "")

    def env_of(self, which, log=None):
        env = dict(os.environ)
        if which == "B":
            env["LD_PRELOAD"] = self.shim
            env["CRO_RESEED"] = str(self.args.reseed)
            if log:
                env["CRO_RESEED_LOG"] = log
        return env

    def run(self, cmd, which, log=None, timeout=None):
        try:
            return subprocess.run(cmd, capture_output=True, text=True,
                                  env=self.env_of(which, log),
                                  timeout=timeout or self.args.timeout)
        except subprocess.TimeoutExpired:
            return None
        except OSError as e:  # compute-sanitizer or the tool missing
            return subprocess.CompletedProcess(cmd, 127, "", str(e))

    def direct(self, exe, src, which, log=None):
        """The program's own check on one input."""
        p = self.run([exe] + shlex.split(self.args_of(src, which)), which, log)
        if p is None:
            return {"passed": False, "output": "timeout"}
        ok, last = own_check(p)
        return {"passed": ok, "exit_code": p.returncode, "output": last}

    def memcheck(self, exe, src):
        cmd = ["compute-sanitizer", "--tool", "memcheck", "--leak-check", "no",
               "--error-exitcode", "97", exe] + shlex.split(self.args_of(src, "B"))
        p = self.run(cmd, "B", timeout=self.args.timeout * 4)
        if p is None:
            return {"passed": False, "output": "timeout"}
        lines = (p.stdout + p.stderr).strip().splitlines()
        summary = next((l for l in reversed(lines) if "ERROR SUMMARY" in l), "")
        errors = summary.split("ERROR SUMMARY:")[-1].split()[0] if summary else "?"
        ok, last = own_check(subprocess.CompletedProcess(
            cmd, 0 if p.returncode == 0 else p.returncode,
            "\n".join(l for l in lines if not l.startswith("=========")), ""))
        first_error = next((l for l in lines if l.startswith("========= ")
                            and ("Invalid" in l or "Error" in l)), "")
        return {"passed": ok and errors == "0", "errors": errors,
                "output": last, "first_error": first_error[:300]}

    def measure(self, src, cfg_path, which, out_json):
        run_args = self.args_of(src, which)
        cmd = [self.args.tool, src, "--measure", "--apply", cfg_path,
               *(["--run", run_args] if run_args else []), "--runs", "1", "--replays", "1",
               "--max-launches", "1", "--cache-dir", self.cache,
               "--timeout", str(self.args.timeout), "-o", out_json, "--quiet"]
        p = self.run(cmd, which, timeout=self.args.timeout * 3)
        if p is None:
            return {"passed": False, "rejection": "timeout"}
        try:
            with open(out_json) as f:
                r = json.load(f)
        except (OSError, ValueError):
            return {"passed": False, "exit_code": p.returncode,
                    "rejection": p.stderr.strip()[-500:]}
        return {"passed": bool(r.get("verified")), "exit_code": p.returncode,
                "rejection": r.get("rejection"),
                "captures": (r.get("original") or {}).get("captures")}

    def expired(self):
        return self.deadline is not None and time.time() > self.deadline

    def check_variant(self, job):
        if self.expired():
            return {"status": "not run (time limit)"}
        if not job.get("built"):
            return {"status": "failed", "passed": False}
        d = os.path.dirname(job["exe"])
        cfg = os.path.join(d, "selfcheck-config.json")
        with open(cfg, "w") as f:
            json.dump(job["config"], f)
        res = {"own_check_A": self.direct(job["exe"], job["src"], "A"),
               "memcheck_B": self.memcheck(job["exe"], job["src"]),
               "original_A": self.measure(job["src"], cfg, "A", os.path.join(d, "mA.json")),
               "original_B": self.measure(job["src"], cfg, "B", os.path.join(d, "mB.json"))}
        res["own_check_B"] = {"passed": "PASSED" in (res["memcheck_B"]["output"] or ""),
                              "output": res["memcheck_B"]["output"]}
        passed = all(r["passed"] for r in res.values())
        res["passed"] = passed
        res["status"] = "passed" if passed else "failed"
        return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--inputs", default=os.path.join(HERE, "selfcheck", "inputs.json"))
    ap.add_argument("--random", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--reseed", type=int, default=7, help="mixed into rand()'s seed for input B")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--run-jobs", type=int, default=8)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--time-limit", type=int, default=0,
                    help="seconds after which no further variant is started (0 = none)")
    ap.add_argument("--commit", default="")
    ap.add_argument("--knobs", default=None,
                    help="a regular expression over knob ids: check every value of "
                         "the knobs it matches (and random combinations with one "
                         "of them set) instead of every knob at both ends")
    ap.add_argument("--out", required=True)
    ap.add_argument("--skip", action="append", default=[],
                    help="an earlier call's JSON at the same commit: its checked variants "
                         "are not run again (a run split over calls)")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    t_start = time.time()

    with open(args.inputs) as f:
        inputs = json.load(f)["programs"]
    work = tempfile.mkdtemp(prefix="cro-selfcheck-")
    shim = os.path.join(work, "libcro-reseed.so")
    subprocess.run(["cc", "-O2", "-fPIC", "-shared", os.path.join(HERE, "selfcheck", "reseed.c"),
                    "-o", shim, "-ldl"], check=True)
    ck = Checker(args, inputs, shim, work)

    # Sample and build every variant (and each original) on all cores.
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        samples = list(pool.map(
            lambda ix: sample_variants(args.tool, ix[1], args.seed, args.random,
                                       os.path.join(work, str(ix[0])),
                                       only=args.knobs),
            enumerate(args.files)))
    jobs = [{"program": program_name(v.src), "src": v.src, "name": v.name,
             "config": v.cfg, "variant": v} for vs in samples for v in vs]

    def build(job):
        v = job.pop("variant")
        if v.error is not None:
            return {"built": False, "error": v.error}
        exe = os.path.join(os.path.dirname(v.path), "prog")
        c = subprocess.run(nvcc_command(args.nvcc, v.src, v.path, exe, v.flags,
                                        compile_only=False), capture_output=True, text=True)
        if c.returncode != 0:
            return {"built": False, "error": c.stderr[-2000:]}
        return {"built": True, "exe": exe, "flags": v.flags}

    def build_original(ix):
        i, src = ix
        d = os.path.join(work, f"original-{i}")
        os.makedirs(d)
        exe = os.path.join(d, "prog")
        c = subprocess.run(nvcc_command(args.nvcc, src, src, exe, [], compile_only=False),
                           capture_output=True, text=True)
        return src, (exe if c.returncode == 0 else None)

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        for job, r in zip(jobs, pool.map(build, jobs)):
            job.update(r)
        originals = dict(pool.map(build_original, enumerate(args.files)))
    build_s = time.time() - t0

    # The originals on both inputs: input B must be one the program accepts.
    def original_check(src):
        exe = originals[src]
        if exe is None:
            return src, {"usable": False, "why": "the original does not build"}
        log = os.path.join(os.path.dirname(exe), "reseed.log")
        a, b = ck.direct(exe, src, "A"), ck.direct(exe, src, "B", log)
        reseeded = os.path.exists(log)
        differs = []
        if ck.args_of(src, "B"):
            differs.append("arguments '" + ck.args_of(src, "B") + "'")
        if reseeded:
            differs.append("rand() reseeded")
        return src, {"usable": a["passed"] and b["passed"] and bool(differs),
                     "A": a, "B": b, "input_B": ", ".join(differs) or "the same as A",
                     "why": "" if a["passed"] and b["passed"] and differs else
                     ("input B is input A: neither arguments nor rand() data differ"
                      if a["passed"] and b["passed"] else
                      "the original fails its own check on input " + ("A" if not a["passed"] else "B"))}

    with concurrent.futures.ThreadPoolExecutor(args.run_jobs) as pool:
        programs = {program_name(s): r for s, r in pool.map(original_check, args.files)}

    skipped = set()
    for path in args.skip:
        with open(path) as f:
            earlier = json.load(f)
        if earlier.get("commit") != args.commit:
            sys.exit(f"--skip {path}: commit {earlier.get('commit')} is not {args.commit}")
        skipped |= {(v["program"], v["name"]) for v in earlier["variants"]
                    if v.get("status") in ("passed", "failed")}
    for j in jobs:
        if (j["program"], j["name"]) in skipped:
            j.update({"status": "checked in an earlier call", "passed": None})
    usable = [j for j in jobs if programs[j["program"]]["usable"] and
              (j["program"], j["name"]) not in skipped]
    for j in jobs:
        if not programs[j["program"]]["usable"]:
            j.update({"status": "not run (input)", "passed": None})

    # Longest programs first would balance better, but their cost is not
    # known up front; interleave programs so that a slow one does not hold
    # the last minutes alone.
    order = sorted(range(len(usable)), key=lambda i: (usable[i]["name"] != "default", i % 7, i))
    lock = threading.Lock()
    done = [0]
    t0 = time.time()

    def check(i):
        t = time.time()
        r = ck.check_variant(usable[i])
        r["seconds"] = round(time.time() - t, 1)
        with lock:
            done[0] += 1
            if r.get("status") == "failed":
                print(f"FAIL {usable[i]['program']} [{usable[i]['name']}] "
                      f"{json.dumps(usable[i]['config'])}: "
                      + "; ".join(f"{k}: {v.get('rejection') or v.get('first_error') or v.get('output') or v.get('error', '')}"
                                  for k, v in r.items() if isinstance(v, dict) and not v.get("passed"))[:600]
                      + (usable[i].get("error", "") or "")[:300], flush=True)
        return i, r

    with concurrent.futures.ThreadPoolExecutor(args.run_jobs) as pool:
        for i, r in pool.map(check, order):
            usable[i].update(r)
    run_s = time.time() - t0

    for j in jobs:
        j.pop("exe", None)
        j.pop("src", None)
    counts = {}
    for j in jobs:
        counts[j.get("status", "failed")] = counts.get(j.get("status", "failed"), 0) + 1
    result = {"machine": machine(("nvcc", "compute-sanitizer")), "commit": args.commit, "seed": args.seed,
              "reseed": args.reseed, "method": __doc__.split("\n\n")[0].strip(),
              "knobs": args.knobs,
              "build_seconds": round(build_s, 1), "run_seconds": round(run_s, 1),
              "total_seconds": round(time.time() - t_start, 1),
              "programs": programs, "counts": counts,
              "checked": counts.get("passed", 0) + counts.get("failed", 0),
              "passed": counts.get("passed", 0), "variants": jobs}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    for name, p in sorted(programs.items()):
        if not p["usable"]:
            print(f"INPUT {name}: {p['why']}")
    print(f"{result['passed']} of {result['checked']} checked variants passed "
          f"({json.dumps(counts)}; build {build_s:.0f} s, run {run_s:.0f} s)")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if counts.get("failed", 0) == 0 else 1)


if __name__ == "__main__":
    main()
