#!/usr/bin/env python3
"""as-unprivileged.py RO_DIR -- CMD ARG...: runs CMD with RO_DIR read-only
for it, and returns CMD's exit code.

Not as root: RO_DIR (and its files) are made read-only for the run.
As root, whom permissions do not stop, CMD runs as the user 'nobody'. The
test's files may sit under a directory nobody cannot enter (a checkout under
/root), so the run is staged in a fresh directory under /tmp: CMD itself, a
copy of RO_DIR (read-only), a copy of every other ARG that is an existing
file, and a writable place for every ARG that names a file yet to be
written, which is copied back afterwards."""
import os
import pwd
import shutil
import subprocess
import sys
import tempfile

ro_dir = os.path.abspath(sys.argv[1])
assert sys.argv[2] == "--"
cmd = sys.argv[3:]


def make_read_only(d):
    for name in os.listdir(d):
        os.chmod(os.path.join(d, name), 0o444)
    os.chmod(d, 0o555)


if os.geteuid() != 0:
    make_read_only(ro_dir)
    try:
        sys.exit(subprocess.call(cmd))
    finally:
        os.chmod(ro_dir, 0o755)

stage = tempfile.mkdtemp(prefix="cro-unprivileged-", dir="/tmp")
os.chmod(stage, 0o755)
staged_ro = os.path.join(stage, "ro")
shutil.copytree(ro_dir, staged_ro)
make_read_only(staged_ro)
tool = os.path.join(stage, os.path.basename(cmd[0]))
shutil.copy2(cmd[0], tool)
os.chmod(tool, 0o755)
args, outputs = [tool], []
for i, a in enumerate(cmd[1:]):
    p = os.path.abspath(a)
    if p.startswith(ro_dir + os.sep):
        args.append(staged_ro + p[len(ro_dir):])
    elif os.path.isfile(p):
        d = os.path.join(stage, "in%d" % i)
        os.mkdir(d)
        os.chmod(d, 0o755)
        args.append(shutil.copy(p, d))
        os.chmod(args[-1], 0o644)
    elif a.startswith("/") and os.path.isdir(os.path.dirname(p)) and not os.path.exists(p):
        d = os.path.join(stage, "out%d" % i)
        os.mkdir(d)
        os.chmod(d, 0o777)
        args.append(os.path.join(d, os.path.basename(p)))
        outputs.append((args[-1], p))
    else:
        args.append(a)
nobody = pwd.getpwnam("nobody")


def drop():
    os.setgroups([])
    os.setgid(nobody.pw_gid)
    os.setuid(nobody.pw_uid)


try:
    rc = subprocess.call(args, preexec_fn=drop)
    for staged, original in outputs:
        if os.path.exists(staged):
            shutil.copy(staged, original)
    # What the run left beside the database (it must leave nothing).
    for name in os.listdir(staged_ro):
        if not os.path.exists(os.path.join(ro_dir, name)):
            open(os.path.join(ro_dir, name), "w").close()
finally:
    os.chmod(staged_ro, 0o755)
    shutil.rmtree(stage)
sys.exit(rc)
