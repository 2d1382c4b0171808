#!/usr/bin/env python3
"""Prints a JSON document as one `path = value` line per leaf, so lit tests
can CHECK single facts of --analyze output:

    kernels[0].launches[1].block.dims[0].kind = "macro"

Reads stdin; exits non-zero (with the parser's message) on invalid JSON, so
a test also fails when the tool prints anything but JSON."""
import json
import sys


def walk(value, path, out):
    if isinstance(value, dict):
        if not value:
            out.append(f"{path} = {{}}")
        for key in sorted(value):
            walk(value[key], f"{path}.{key}" if path else key, out)
    elif isinstance(value, list):
        if not value:
            out.append(f"{path} = []")
        for i, item in enumerate(value):
            walk(item, f"{path}[{i}]", out)
    else:
        out.append(f"{path} = {json.dumps(value)}")


def main():
    try:
        doc = json.load(sys.stdin)
    except json.JSONDecodeError as e:
        sys.exit(f"json-flatten: invalid JSON: {e}")
    lines = []
    walk(doc, "", lines)
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
