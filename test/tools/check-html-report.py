#!/usr/bin/env python3
"""check-html-report.py REPORT.html EVALUATIONS: loads the report in headless
Chromium and fails unless it loads without a console message, shows both
plots (an SVG polyline each) and has a table row per evaluation."""
import re, subprocess, sys, pathlib

path = pathlib.Path(sys.argv[1]).resolve()
want = int(sys.argv[2])
r = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--enable-logging=stderr", "--v=0", "--dump-dom",
                    path.as_uri()], capture_output=True, text=True, timeout=120)
if r.returncode != 0:
    sys.exit(f"chromium failed ({r.returncode}): {r.stderr[-2000:]}")
console = [l for l in r.stderr.splitlines() if ":CONSOLE" in l]
if console:
    sys.exit("console messages:\n" + "\n".join(console))
dom = r.stdout
for plot in ("plot-evaluations", "plot-time"):
    m = re.search(r'<svg id="%s"[^>]*>(.*?)</svg>' % plot, dom, re.S)
    if not m or "<polyline" not in m.group(1):
        sys.exit(f"plot {plot} missing or empty")
    points = re.search(r'points="([^"]*)"', m.group(1)).group(1).split()
    if len(points) < 2 * want - 1:
        sys.exit(f"plot {plot} has {len(points)} points for {want} evaluations")
table = re.search(r'<table id="evaluations">(.*?)</table>', dom, re.S)
if not table:
    sys.exit("no table of evaluations")
rows = table.group(1).count("<tr>") - 1
if rows != want:
    sys.exit(f"{rows} rows in the table, expected {want}")
print(f"ok: no console messages, 2 plots, {rows} rows")
