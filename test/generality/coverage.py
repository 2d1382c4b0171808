#!/usr/bin/env python3
"""Which knobs the tool offers on the generality suite, and why it refuses.

Runs `cuda-rewrite-opt FILE --analyze` on every program the manifests
(programs/MANIFEST-*.json) list and tabulates, per transform, on how many
kernels it offers a knob. The block-size share is taken over the kernels the
manifest marks `block_size_changeable` (a kernel whose block shape cannot
legally change is not a miss when it gets no knob); the thread-mapping
transforms over the kernels they apply to: vectorize over those with a
thread mapping ("1d", "2d", "3d") whose threads work independently on
elements narrower than a 16-byte vector (the manifest marks the others
`vectorize_applies: false`, with `vectorize_why`: per-block partial sums,
tiles a block fills together, float4 elements), coarsen over the mapped and
the grid-stride kernels, read-only over those with a pointer parameter the
kernel only reads and that is not declared `const T *__restrict__` yet (the
manifest marks the others `read_only_applies: false`, with `read_only_why`).
The memory-hierarchy transforms (shared-stage, register-tile,
scalar-replace, warp-reduce, privatize, warp-aggregate) over the kernels the
manifest marks as having their opportunity (`memory_transforms_apply`, each
with `applies` and `why`). All marks are checked by reading the code, not by
the tool's analysis.

    coverage.py TOOL [--json OUT] [--min-block-size 0.95] [--min-coarsen 0.8]
                [--min-vectorize 0.8] [--min-read-only 0.8] [--min-parsed 0.95]
                [--min-modelled 0.90] [--min-memory 0.8] [--list] [--table]

Also counts the programs that parse and the manifests' kernels the model
finds with a launch site (kernels in included files and headers included).

--table prints, per kernel, the transforms that offer it a knob and the
reason of each one that refuses (the golden file expected-knobs.txt).

Exits 1 when a --min-* threshold is not met, 2 on a tool failure.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MAPPED = {"1d", "2d", "3d"}
# Coarsening also applies to a kernel whose work is grid-stride loops (it
# launches fewer blocks); vectorizing does not.
COARSENABLE = MAPPED | {"grid-stride"}
# Marked per kernel in the manifests' memory_transforms_apply: whether the
# kernel has the opportunity the transform exploits (reuse across a block's
# threads, a global element updated in a loop, a per-thread serial sum,
# data-indexed or same-address atomics), read from the code.
MEMORY_TRANSFORMS = ["shared-stage", "register-tile", "scalar-replace",
                     "warp-reduce", "privatize", "warp-aggregate"]


def load_manifests():
    programs = []
    for path in sorted(glob.glob(os.path.join(HERE, "programs", "MANIFEST-*.json"))):
        with open(path) as f:
            programs.extend(json.load(f))
    return programs


def analyze(tool, program):
    # Relative to the repository, so that reasons name repository paths.
    r = subprocess.run([os.path.abspath(tool), program["file"], "--analyze"],
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        sys.stderr.write("coverage: %s failed (exit %d): %s\n" %
                         (program["file"], r.returncode, r.stderr.strip()))
        return None
    model = json.loads(r.stdout)
    if not model.get("parsed", True):
        # nvcc compiles it and only compiler flags are offered: not parsed.
        sys.stderr.write("coverage: %s did not parse: %s\n" %
                         (program["file"], model.get("parse_error", "")))
        return None
    return model


def unqualified(name):
    return name.split("::")[-1] if name else name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("--json")
    ap.add_argument("--list", action="store_true", help="print every refusal")
    ap.add_argument("--table", action="store_true",
                    help="per kernel: knobs offered and every refusal")
    ap.add_argument("--min-block-size", type=float, default=0.0)
    ap.add_argument("--min-coarsen", type=float, default=0.0)
    ap.add_argument("--min-read-only", type=float, default=0.0)
    ap.add_argument("--min-vectorize", type=float, default=0.0)
    ap.add_argument("--min-parsed", type=float, default=0.0,
                    help="share of the programs that must parse (a program "
                         "that does not is then a miss, not a failure)")
    ap.add_argument("--min-modelled", type=float, default=0.0,
                    help="share of the manifests' kernels that must be "
                         "found with a launch site")
    ap.add_argument("--min-memory", type=float, default=0.0,
                    help="share each memory-hierarchy transform must reach "
                         "over the kernels marked for it")
    args = ap.parse_args()

    rows = []
    failed = 0
    programs = load_manifests()
    manifest_kernels = sum(len(p["kernels"]) for p in programs)
    modelled = 0  # manifest kernels the model has, with a launch site
    for p in programs:
        model = analyze(args.tool, p)
        if model is None:
            failed += 1
            continue
        for k in p["kernels"]:
            name = k["kernel"]
            modelled += any(unqualified(x["name"]) == name and x["launches"]
                            for x in model["kernels"])
            knobs = sorted({kn["transform"] for kn in model["knobs"]
                            if unqualified(kn.get("kernel")) == name})
            refused = {r["transform"]: r["reason"] for r in model["refused"]
                       if unqualified(r.get("kernel")) == name}
            info = [x for x in model["kernels"] if unqualified(x["name"]) == name]
            rows.append({"program": p["program"], "kernel": name,
                         "loops": len(info[0]["loops"]) if info else 0,
                         "mapping": k.get("mapping"),
                         "block_size_changeable": k.get("block_size_changeable", True),
                         "read_only_applies": k.get("read_only_applies", True),
                         "vectorize_applies": k.get("vectorize_applies", True),
                         "memory_applies": {
                             t: m["applies"] for t, m in
                             k.get("memory_transforms_apply", {}).items()},
                         "knobs": knobs, "refused": refused})

    def share(transform, eligible):
        pool = [r for r in rows if eligible(r)]
        hit = [r for r in pool if transform in r["knobs"]]
        return len(hit), len(pool), [r for r in pool if transform not in r["knobs"]]

    if args.table:
        for r in sorted(rows, key=lambda r: (r["program"], r["kernel"])):
            print("%s/%s: %s" % (r["program"], r["kernel"], " ".join(r["knobs"]) or "-"))
            for t, why in sorted(r["refused"].items()):
                print("    %s: %s" % (t, why))
        return 2 if failed else 0

    summary = {}
    for transform, eligible in [
            ("block-size", lambda r: r["block_size_changeable"]),
            ("coarsen", lambda r: r["mapping"] in COARSENABLE),
            ("vectorize", lambda r: r["mapping"] in MAPPED and
             r["vectorize_applies"]),
            ("read-only", lambda r: r["read_only_applies"]),
            ("unroll", lambda r: r["loops"] > 0),
            ("launch-bounds", lambda r: True)] + [
            # The memory-hierarchy transforms (issue 17), over the kernels
            # the manifest marks as having their opportunity
            # (memory_transforms_apply, read from the code): only where
            # some kernel is marked, so a manifest without marks prints
            # nothing for them.
            (t, lambda r, t=t: r["memory_applies"].get(t, False))
            for t in MEMORY_TRANSFORMS
            if any(r["memory_applies"].get(t) for r in rows)]:
        hit, total, misses = share(transform, eligible)
        summary[transform] = {"offered": hit, "eligible": total,
                              "share": hit / total if total else 0.0}
        print("%-14s %3d / %3d  (%5.1f%%)" % (transform, hit, total,
                                             100.0 * hit / total if total else 0))
        if args.list:
            for r in misses:
                print("    %s/%s: %s" % (r["program"], r["kernel"],
                                         r["refused"].get(transform, "(no knob, no reason)")))
    memory_ok = all(summary[t]["share"] >= args.min_memory
                    for t in MEMORY_TRANSFORMS if t in summary)
    parsed = len(programs) - failed
    summary["parsed"] = {"programs": parsed, "of": len(programs)}
    summary["modelled"] = {"kernels": modelled, "of": manifest_kernels}
    print("parsed         %3d / %3d programs" % (parsed, len(programs)))
    print("modelled       %3d / %3d kernels (found, with a launch site)" %
          (modelled, manifest_kernels))
    print("%d programs, %d kernels" % (len({r["program"] for r in rows}), len(rows)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "kernels": rows}, f, indent=1)
    ok = (summary["block-size"]["share"] >= args.min_block_size and
          summary["coarsen"]["share"] >= args.min_coarsen and
          summary["read-only"]["share"] >= args.min_read_only and
          summary["vectorize"]["share"] >= args.min_vectorize and
          parsed >= args.min_parsed * len(programs) and
          modelled >= args.min_modelled * manifest_kernels and memory_ok)
    if failed and not args.min_parsed:
        return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
