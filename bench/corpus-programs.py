#!/usr/bin/env python3
"""The corpus programs for the bench scripts, one per line:
name|file|run arguments|kernels (comma-separated), from bench/corpus.json,
in its order; with a comma-separated list of names (ONLY), only those.
Fields are separated by "|", not tabs: bash's read collapses consecutive
tabs (they are whitespace to it), so an empty run string shifted the fields.
Usage: python3 bench/corpus-programs.py [saxpy,cg]"""
import json, os, sys

only = [x for x in (sys.argv[1] if len(sys.argv) > 1 else "").split(",") if x]
corpus = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus.json")))
for p in corpus["programs"]:
    if not only or p["name"] in only:
        print(p["name"], p["file"], p.get("run", ""),
              ",".join(k["kernel"] for k in p["kernels"]), sep="|")
