#!/usr/bin/env python3
"""with-locked-db.py DB CMD...: runs CMD while another process holds an
exclusive lock on the SQLite database DB (as a writer that never finishes
would); prints CMD's stderr and exits with its status."""
import sqlite3, subprocess, sys
db, cmd = sys.argv[1], sys.argv[2:]
c = sqlite3.connect(db, isolation_level=None)
c.execute("PRAGMA locking_mode=EXCLUSIVE")
c.execute("BEGIN EXCLUSIVE")
r = subprocess.run(cmd, stderr=subprocess.PIPE, text=True)
sys.stderr.write(r.stderr)
c.execute("ROLLBACK")
c.close()
sys.exit(r.returncode)
