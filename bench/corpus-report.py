#!/usr/bin/env python3
"""Turns a bench/run.sh output directory into the corpus results (issue 8):
a JSON file with a top-level "kernels" array, a Markdown table beside it and
an SVG plot of speedup and fraction of the roofline floor per program.

Per program (the tool's objective, --objective, is by default `program`: the
program's GPU time, every launch counted, so the floor is the sum of its
kernels' floors times their launches per run; under `per-launch` it is the
sum of its kernels' median time per launch, and the floor the sum of their
floors):
  original_ms, best_ms         the main command's confirmation runs
  blocksize_only_ms            the exhaustive block-size-only search
  roofline_ms                  sum over kernels of max(bytes / copy bandwidth,
                               flops / fp32 peak) per launch, times the
                               launches the objective counts, with the
                               ceilings measured in the same run
  verified                     the emitted file compiled and passed the
                               program's own check
  evaluations, wall_s and the time split from the tool's report
  (tool_overhead_fraction: wall time outside the programs' runs and the
  nvcc waits), and per_kernel: each kernel's times, floor and fraction.

Usage: corpus-report.py --dir OUT --corpus bench/corpus.json
       --json R.json --md R.md --svg R.svg [--commit C]
"""
import argparse, glob, json, math, os, statistics, sys

def load(path, default=None):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return default

def ceilings(out):
    bw, peak = [], []
    for f in sorted(glob.glob(os.path.join(out, "ceilings-*.json"))):
        c = load(f, {})
        # bench/ceilings.cu: GB/s of a device-to-device copy (read + write,
        # the faster of cudaMemcpy and a copy kernel) and GFLOP/s of fp32 FMAs.
        if "copy_gbps" in c:
            bw.append(c["copy_gbps"])
        if "fp32_peak_gflops" in c:
            peak.append(c["fp32_peak_gflops"] / 1e3)
    if not bw or not peak:
        sys.exit("no ceilings measured in " + out)
    return statistics.median(bw), statistics.median(peak)

def svg(rows):
    """Two panels of grouped bars: speedup over the original (log scale) and
    fraction of the roofline floor, for block-size-only and the tool."""
    w, h, left, top = 980, 560, 70, 30
    n = len(rows)
    panel_h = (h - 3 * top) / 2
    slot = (w - left - 20) / max(1, n)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h + 80}" '
           f'font-family="sans-serif" font-size="11">']
    colors = {"original": "#9e9e9e", "blocksize_only": "#90caf9", "best": "#1565c0"}
    def bars(y0, values, scale, label, ticks):
        out.append(f'<text x="10" y="{y0 - 10}" font-size="13">{label}</text>')
        for t, text in ticks:
            y = y0 + panel_h - scale(t)
            out.append(f'<line x1="{left}" x2="{w - 20}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>'
                       f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{text}</text>')
        for i, r in enumerate(rows):
            series = values(r)
            bw = slot * 0.8 / len(series)
            for j, (key, v) in enumerate(series):
                if v is None:
                    continue
                x = left + i * slot + slot * 0.1 + j * bw
                hh = max(0.5, scale(v))
                out.append(f'<rect x="{x:.1f}" y="{y0 + panel_h - hh:.1f}" width="{bw:.1f}" '
                           f'height="{hh:.1f}" fill="{colors[key]}"><title>{r["name"]} {key}: {v:.3g}</title></rect>')
    log_max = max([math.log10(max(r["speedup"] or 1, r["blocksize_only_speedup"] or 1)) for r in rows] + [1])
    lscale = lambda v: panel_h * max(0.0, math.log10(max(v, 1e-9)) + 0.3) / (log_max + 0.3)
    bars(top + 10, lambda r: [("blocksize_only", r["blocksize_only_speedup"]), ("best", r["speedup"])],
         lscale, "speedup over the original (log scale)",
         [(v, f"{v:g}x") for v in (1, 2, 5, 10, 20, 50, 100) if math.log10(v) <= log_max])
    y1 = top * 2 + panel_h + 10
    fscale = lambda v: panel_h * min(v, 1.2) / 1.2
    bars(y1, lambda r: [("original", r["roofline_fraction_original"]),
                        ("blocksize_only", r["roofline_fraction_blocksize_only"]),
                        ("best", r["roofline_fraction"])],
         fscale, "fraction of the roofline floor", [(v, f"{v:.0%}") for v in (0.25, 0.5, 0.75, 1.0)])
    for i, r in enumerate(rows):
        x = left + i * slot + slot / 2
        out.append(f'<text x="{x:.1f}" y="{h + 10}" text-anchor="end" '
                   f'transform="rotate(-40 {x:.1f} {h + 10})">{r["name"]}</text>')
    lx = w - 330
    for k, (key, text) in enumerate([("original", "original"), ("blocksize_only", "block size only"),
                                     ("best", "cuda-rewrite-opt")]):
        out.append(f'<rect x="{lx + k * 110}" y="6" width="10" height="10" fill="{colors[key]}"/>'
                   f'<text x="{lx + k * 110 + 14}" y="15">{text}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"

def floor_ms(k, bw_gbps, peak_tflops):
    return max(k["bytes"] / (bw_gbps * 1e9), k["flops"] / (peak_tflops * 1e12)) * 1e3

def launches_counted(rep, kernel):
    """How many of the kernel's launches the report's times add up: all of
    a run's under the `program` objective (reports before the objective
    existed timed per launch)."""
    return kernel["launches_per_run"] if rep.get("objective") == "program" else 1

def wrote_variant(rep):
    """The main command wrote a variant (else the output is the original)."""
    return rep["decision"].startswith("Wrote")

def per_kernel(program, rep, bw_gbps, peak_tflops):
    """Each kernel of a program: its median time per launch in the
    original and in the written variant (the confirmation runs, from the
    report's metrics; the variant's equals the original's when nothing was
    written), its roofline floor and the fraction of it reached."""
    times = {m["kernel"]: m for m in rep.get("metrics", [])
             if m.get("metric") == "median time per launch (ms)"}
    wrote = wrote_variant(rep)
    out = []
    for k in program["kernels"]:
        m = times.get(k["kernel"], {})
        original = m.get("original")
        best = m.get("best") if wrote else original
        floor = floor_ms(k, bw_gbps, peak_tflops)
        out.append({"kernel": k["kernel"], "original_ms": original, "best_ms": best,
                    "roofline_ms": floor,
                    "roofline_fraction": floor / best if best else None})
    return out

def machine_of(directory):
    """The machine files bench/run.sh writes, one per call and GPU: the
    latest one's text, and what the table's header says -- every distinct
    GPU, driver, nvcc and commit they name (several only when the calls
    differed, which the caller warns about), the first and last start time,
    how many there were."""
    records = []
    for f in glob.glob(os.path.join(directory, "machine-*.txt")):
        text = open(f).read()
        r = {"text": text, "date": "", "gpu": "", "driver": "", "nvcc": "", "commit": ""}
        for line in text.splitlines():
            if line.startswith("date: "):
                r["date"] = line[6:].strip()
            elif line.startswith("commit: "):
                r["commit"] = line[8:].strip()[:7]
            elif line.startswith("Cuda compilation tools"):
                r["nvcc"] = line.rsplit(" ", 1)[-1].lstrip("V")
            elif line.count(",") == 2:
                gpu, cc, driver = [x.strip() for x in line.split(",")]
                r["gpu"], r["driver"] = f"{gpu} (sm_{cc.replace('.', '')})", driver
        records.append(r)
    # By start time, not file name: the names carry only the time of day.
    records.sort(key=lambda r: r["date"])
    distinct = lambda k: sorted({r[k] for r in records if r[k]})
    dates = [r["date"] for r in records if r["date"]]
    setup = {"gpu": distinct("gpu"), "driver": distinct("driver"), "nvcc": distinct("nvcc"),
             "commit": distinct("commit"), "first": dates[0] if dates else "",
             "last": dates[-1] if dates else "", "calls": len(records)}
    return (records[-1]["text"] if records else ""), setup


def header(setup, commit):
    """The table's first line: where and with what it was measured."""
    if not setup["calls"]:
        return "Machine not recorded (no machine-*.txt in the directory)."
    say = lambda vs: " and ".join(vs) if vs else "unknown"
    when = " to ".join(sorted({setup["first"], setup["last"]} - {""})) or "at an unrecorded time"
    return (f"{say(setup['gpu'])}, driver {say(setup['driver'])}, nvcc {say(setup['nvcc'])}; "
            f"tool commit {commit or say(setup['commit'])}; bench/run.sh started {setup['calls']} "
            f"time(s) (once per device call and GPU), {when}.")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--corpus", default="bench/corpus.json")
    ap.add_argument("--json", required=True)
    ap.add_argument("--md", required=True)
    ap.add_argument("--svg", required=True)
    ap.add_argument("--commit", default="")
    a = ap.parse_args()
    bw_gbps, peak_tflops = ceilings(a.dir)
    machine, setup = machine_of(a.dir)
    for k in ("gpu", "driver", "nvcc", "commit"):
        if len(setup[k]) > 1:
            print(f"corpus-report.py: the calls differ in {k}: {', '.join(setup[k])}", file=sys.stderr)
    if a.commit and setup["commit"] and not any(c.startswith(a.commit[:7]) or a.commit.startswith(c)
                                                for c in setup["commit"]):
        print(f"corpus-report.py: --commit {a.commit}, but the calls ran {', '.join(setup['commit'])}",
              file=sys.stderr)
    rows = []
    for p in load(a.corpus)["programs"]:
        name = p["name"]
        rep = load(os.path.join(a.dir, name + ".report.json"))
        if rep is None:
            print(f"{name}: no report, left out", file=sys.stderr)
            continue
        bs = load(os.path.join(a.dir, name + ".blocksize.json"), {})
        wall = load(os.path.join(a.dir, name + ".wall.json"), {}).get("wall_s")
        verified_text = open(os.path.join(a.dir, name + ".verified")).read().strip() \
            if os.path.exists(os.path.join(a.dir, name + ".verified")) else "not run"
        floor = sum(floor_ms(k, bw_gbps, peak_tflops) * launches_counted(rep, k)
                    for k in p["kernels"])
        original = rep["original_ms"]
        best = rep["best_ms"] if rep.get("best_ms") and wrote_variant(rep) else original
        bso = bs.get("best_time") or bs.get("original_ms")
        space = load(os.path.join(a.dir, name + ".blocksize-space.json"), None)
        bso_note = ""
        if space == {}:
            # No block-size knob (cg's kernels share one grid variable, so
            # the transform refuses each launch): the launch parameters
            # alone change nothing, and the baseline is the original.
            bso, bso_note = original, "no block-size knob: the baseline is the original"
        secs = rep["seconds"]
        evals = len(rep["evaluations"])
        # The wall time split: programs running on the GPU (the search's
        # runs, the original's, the confirmation), nvcc on the critical path
        # (compiles overlap the measuring; only the waits count), the
        # strategy, and the rest of the tool (analysis, rewriting, comparing
        # outputs, the database) = wall minus the others.
        total_wall = wall or secs.get("wall") or secs["total"]
        gpu = secs["measure"] + secs.get("confirm", 0)
        nvcc = secs.get("compile_wait", 0)
        # "verify" (comparing captured outputs) is part of "tool"; reports
        # from before it was measured have none.
        split = {"wall": total_wall, "gpu_runs": gpu, "nvcc_wait": nvcc,
                 "nvcc_cpu_parallel": secs["compile"], "strategy": secs["strategy"],
                 "verify": secs.get("verify"),
                 # The part of it the search waited for (comparisons overlap
                 # the next run since the checksums of issue 18).
                 "verify_wait": secs.get("verify_wait", secs.get("verify")),
                 "tool": total_wall - gpu - nvcc}
        rows.append({
            "name": name, "file": p["file"], "kernels_in_program": [k["kernel"] for k in p["kernels"]],
            "original_ms": original, "best_ms": best, "blocksize_only_ms": bso,
            "blocksize_only_note": bso_note,
            "roofline_ms": floor, "verified": verified_text == "passed",
            "check": verified_text, "evaluations": evals, "wall_s": wall,
            "speedup": original / best if best else None,
            "blocksize_only_speedup": original / bso if bso else None,
            "speedup_over_blocksize_only": bso / best if bso and best else None,
            "spread_ms": {"original": rep.get("original_spread_ms"), "best": rep.get("best_spread_ms")},
            "rewrite_sequence": rep.get("best_sequence", []),
            "decision": rep["decision"],
            "roofline_fraction": floor / best if best else None,
            "roofline_fraction_original": floor / original,
            "roofline_fraction_blocksize_only": floor / bso if bso else None,
            "time_split_s": split,
            "tool_overhead_fraction": split["tool"] / split["wall"] if split["wall"] else None,
            "seconds_per_evaluation": split["wall"] / max(1, evals),
            "per_kernel": per_kernel(p, rep, bw_gbps, peak_tflops),
        })
    overheads = [r["tool_overhead_fraction"] for r in rows if r["tool_overhead_fraction"] is not None]
    geo = lambda xs: math.exp(statistics.mean(math.log(x) for x in xs)) if xs else None
    summary = {
        "geomean_speedup": geo([r["speedup"] for r in rows if r["speedup"]]),
        "geomean_speedup_over_blocksize_only": geo([r["speedup_over_blocksize_only"] for r in rows
                                                    if r["speedup_over_blocksize_only"]]),
        "median_roofline_fraction": statistics.median([r["roofline_fraction"] for r in rows
                                                       if r["roofline_fraction"]]) if rows else None,
        "all_verified": all(r["verified"] for r in rows),
        "tool_overhead_fraction": sum(r["time_split_s"]["tool"] for r in rows) /
                                  sum(r["time_split_s"]["wall"] for r in rows) if rows else None,
        "max_tool_overhead_fraction": max(overheads) if overheads else None,
        "copy_bandwidth_gbps": bw_gbps, "fp32_peak_tflops": peak_tflops,
    }
    result = {"machine": machine, "setup": setup, "commit": a.commit, "summary": summary, "kernels": rows}
    json.dump(result, open(a.json, "w"), indent=1)
    lines = [header(setup, a.commit), "",
             f"| program | original | block size only | cuda-rewrite-opt | speedup | over block-size-only | roofline floor | fraction of floor | verified | evaluations | wall | tool overhead |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        f = lambda v, d=4: "-" if v is None else f"{v:.{d}f}"
        lines.append(f"| {r['name']} | {f(r['original_ms'])} ms | {f(r['blocksize_only_ms'])} ms | "
                     f"{f(r['best_ms'])} ms | {f(r['speedup'], 2)}x | {f(r['speedup_over_blocksize_only'], 2)}x | "
                     f"{f(r['roofline_ms'])} ms | {f(r['roofline_fraction'] * 100 if r['roofline_fraction'] else None, 0)}% | "
                     f"{'yes' if r['verified'] else r['check']} | {r['evaluations']} | {f(r['wall_s'], 0)} s | "
                     f"{f(r['tool_overhead_fraction'] * 100 if r['tool_overhead_fraction'] is not None else None, 1)}% |")
    s = summary
    # A run without the baseline (run.sh's SKIP_BASELINE) has no ratio to it.
    over = s['geomean_speedup_over_blocksize_only']
    over_text = f"{over:.2f}x" if over else "not measured"
    lines += ["", f"Geometric-mean speedup {s['geomean_speedup']:.2f}x (target 2x); over block-size-only "
              f"{over_text} (target 1.5x); median fraction of the roofline "
              f"floor {s['median_roofline_fraction']:.0%} (target 50%); every emitted variant passed its "
              f"program's check: {'yes' if s['all_verified'] else 'no'}; tool overhead (wall time outside the "
              f"programs' runs and the nvcc waits) {s['tool_overhead_fraction']:.1%} of the wall time, "
              f"at most {s['max_tool_overhead_fraction']:.1%} on one program (target under 10%). Ceilings in the same run: copy "
              f"{bw_gbps:.0f} GB/s, fp32 {peak_tflops:.1f} TFLOP/s."] if rows else ["no results"]
    open(a.md, "w").write("\n".join(lines) + "\n")
    open(a.svg, "w").write(svg(rows))
    print("\n".join(lines))

if __name__ == "__main__":
    main()
