#!/usr/bin/env python3
"""as-unprivileged.py DIR -- CMD...: runs CMD with DIR (and the files in it)
read-only for it. As root, whom permissions do not stop, CMD runs as the
user 'nobody'; otherwise as the caller, with DIR's mode set to 0555.
Returns CMD's exit code."""
import os
import pwd
import subprocess
import sys

directory = sys.argv[1]
assert sys.argv[2] == "--"
cmd = sys.argv[3:]
for name in os.listdir(directory):
    os.chmod(os.path.join(directory, name), 0o444)
os.chmod(directory, 0o555)
preexec = None
if os.geteuid() == 0:
    nobody = pwd.getpwnam("nobody")

    def preexec():
        os.setgroups([])
        os.setgid(nobody.pw_gid)
        os.setuid(nobody.pw_uid)
try:
    rc = subprocess.call(cmd, preexec_fn=preexec)
finally:
    os.chmod(directory, 0o755)
sys.exit(rc)
