#!/usr/bin/env python3
"""seed-decision.py DB SOURCE GPU CONFIG-JSON SPEEDUP: records the main
command's confirmed choice for a source, as a tuning run on GPU would have
(the source hash as in seed-db.py)."""
import hashlib, sqlite3, sys
db, source, gpu, config, speedup = sys.argv[1:6]
h = hashlib.sha256(open(source, "rb").read() + b"\0" + b"\0" + b"\0" + b"objective=program\0").hexdigest()
c = sqlite3.connect(db)
c.execute("INSERT INTO decisions (source_hash, gpu, config, speedup) VALUES (?, ?, ?, ?)",
          (h, gpu, config, float(speedup)))
c.commit()
