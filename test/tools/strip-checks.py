#!/usr/bin/env python3
"""Copies stdin to stdout without the lit/FileCheck directive lines.

A test that rewrites its own source (`%cro %s --apply ... | FileCheck %s`)
gets its CHECK lines back in the rewritten file as comments, and FileCheck
would match every pattern against the comment that states it: the test
could not fail. Piping the rewritten source (or its diff) through this
script first leaves only what the tool wrote for the patterns to match.

A directive line is a `//` or `#` comment whose first word is an upper-case
prefix followed by `:` (RUN:, CHECK:, APPLY-NEXT:, BLOCK-DAG:, ...), also
after a diff's leading ' ', '+' or '-'.
"""
import re
import sys

DIRECTIVE = re.compile(
    r"^[ +-]?\s*(//|#)\s*[A-Z][A-Z0-9_]*(-[A-Z0-9_]+)*:")

for line in sys.stdin:
    if not DIRECTIVE.match(line):
        sys.stdout.write(line)
