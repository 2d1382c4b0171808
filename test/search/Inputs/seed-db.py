#!/usr/bin/env python3
"""seed-db.py DB SOURCE GPU CONFIG-JSON MEDIAN-MS ORIGINAL-MS [--flag F]... [REL PATH]...: records a
verified evaluation (and the original's) in a tuning database, as a search
on GPU would have; a database that does not exist yet is created with the
tool's own schema (read from lib/Database/TuningDatabase.cpp, so that there
is one definition of it). The source hash is the tool's:
sha256 of the source, the harness, the build flags, the build template and
the run arguments and "objective=program", each followed by a NUL (here: no harness, flags,
template or arguments; each --flag F is a compiler flag given after `--`,
include directories left out as the tool leaves them out). For a program of several files, each REL PATH pair
names another of its files (REL: its path from SOURCE's directory), as the
tool's identity of a program has them: the main file's text, then for each
other file a NUL, REL, a NUL and its text."""
import hashlib, os, re, sqlite3, sys
db, source, gpu, config, median, original = sys.argv[1:7]
if not os.path.exists(db):
    here = os.path.dirname(os.path.abspath(__file__))
    cpp = open(os.path.join(here, "../../../lib/Database/TuningDatabase.cpp")).read()
    sqlite3.connect(db).executescript(re.search(r'Schema = R"sql\((.*?)\)sql"', cpp, re.S).group(1))
identity = open(source, "rb").read()
extra = sys.argv[7:]
flags = []
while extra[:1] == ["--flag"]:
    flags.append(extra[1])
    extra = extra[2:]
for rel, path in zip(extra[0::2], extra[1::2]):
    identity += b"\0" + rel.encode() + b"\0" + open(path, "rb").read()
hashed_flags = b"".join(f.encode() + b"\0" for f in flags)
# The objective (the program's GPU time, the default) ends the identity.
h = hashlib.sha256(identity + b"\0" + b"\0" + hashed_flags + b"\0" + b"objective=program\0").hexdigest()
c = sqlite3.connect(db)
for cfg, ms in ((config, float(median)), ("{}", float(original))):
    c.execute("INSERT OR REPLACE INTO evaluations (source_hash, file, kernel, config, "
              "sequence, gpu, compute_capability, driver, nvcc, flags, verdict, reason, "
              "median_ms, spread_ms, original_ms, metrics, strategy) VALUES "
              "(?, ?, '', ?, '[]', ?, '9.0', '580', '13.0.88', '', 'verified', '', ?, 0, ?, '{}', 'agent')",
              (h, source, cfg, gpu, ms, float(original)))
c.commit()
