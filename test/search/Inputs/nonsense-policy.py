#!/usr/bin/env python3
"""A broken external policy: it reads the start and the first ask, then
answers something that is not {"configs": [...]}."""
import sys
sys.stdin.readline()
sys.stdin.readline()
print("hello", flush=True)
sys.stdin.read()
