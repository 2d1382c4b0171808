#!/usr/bin/env python3
"""seed-db.py DB SOURCE GPU CONFIG-JSON MEDIAN-MS ORIGINAL-MS: records a
verified evaluation (and the original's) in a tuning database the tool
created, as a search on GPU would have. The source hash is the tool's:
sha256 of the source, the harness, the build flags, the build template and
the run arguments, each followed by a NUL (here: no harness, flags,
template or arguments)."""
import hashlib, sqlite3, sys
db, source, gpu, config, median, original = sys.argv[1:7]
h = hashlib.sha256(open(source, "rb").read() + b"\0" + b"\0" + b"\0").hexdigest()
c = sqlite3.connect(db)
for cfg, ms in ((config, float(median)), ("{}", float(original))):
    c.execute("INSERT OR REPLACE INTO evaluations (source_hash, file, kernel, config, "
              "sequence, gpu, compute_capability, driver, nvcc, flags, verdict, reason, "
              "median_ms, spread_ms, original_ms, metrics, strategy) VALUES "
              "(?, ?, '', ?, '[]', ?, '9.0', '580', '13.0.88', '', 'verified', '', ?, 0, ?, '{}', 'agent')",
              (h, source, cfg, gpu, ms, float(original)))
c.commit()
