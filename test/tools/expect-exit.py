#!/usr/bin/env python3
"""expect-exit.py CODE CMD ARGS...: runs CMD, passes its stdout and stderr
through, and exits 0 only if CMD exited with CODE (else 1, saying why).
lit's `not` only knows zero/non-zero; the tool documents distinct codes."""
import subprocess
import sys

want = int(sys.argv[1])
proc = subprocess.run(sys.argv[2:])
if proc.returncode != want:
    sys.stderr.write(f"expect-exit: wanted exit code {want}, got {proc.returncode}\n")
    sys.exit(1)
