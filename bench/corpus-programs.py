#!/usr/bin/env python3
"""The corpus programs for the bench scripts, one per line:
name|file|run arguments|kernels (comma-separated), from bench/corpus.json,
in its order; with a comma-separated list of names (ONLY), only those, in
the list's order (bench/corpus-shards.py lists the longest first, so a call
that stops starting programs at STOP_BY leaves the short ones). A name the
corpus does not have is an error (exit 2), not silently skipped.
Fields are separated by "|", not tabs: bash's read collapses consecutive
tabs (they are whitespace to it), so an empty run string shifted the fields.
Usage: python3 bench/corpus-programs.py [saxpy,cg]"""
import json, os, sys

only = [x.strip() for x in (sys.argv[1] if len(sys.argv) > 1 else "").split(",") if x.strip()]
corpus = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus.json")))
by_name = {p["name"]: p for p in corpus["programs"]}
unknown = [x for x in only if x not in by_name]
if unknown:
    print(f"corpus-programs.py: not in bench/corpus.json: {', '.join(unknown)} "
          f"(it has: {', '.join(by_name)})", file=sys.stderr)
    sys.exit(2)
for name in dict.fromkeys(only) if only else by_name:
    p = by_name[name]
    print(p["name"], p["file"], p.get("run", ""),
          ",".join(k["kernel"] for k in p["kernels"]), sep="|")
