#!/usr/bin/env python3
"""Checks that every object key in `--analyze` output is documented.

    check-json-keys.py DOC.md MODEL.json [MODEL.json ...]

A key is documented when DOC.md has it as a whole inline code span,
`` `key` `` (a table row's first cell, or a mention in the text); a key that
appears only inside a longer span such as `{a, key}` does not count. Each
file may hold one or more JSON documents, one after another. Every
undocumented key is printed once, with the first path it was seen at, and
the exit status is 1 when there is any.

Data keys: the keys of a few objects are names taken from the program, not
part of the schema, and are skipped (their values are still checked). They
are the objects under these keys, each documented as a map:
  coefficients       variable -> coefficient    (affine forms)
  upper_bounds       index variable -> bound    (thread_mapping)
  upper_bound_forms  index variable -> {symbol, offset}
"""
import json
import re
import sys

DATA_MAPS = {"coefficients", "upper_bounds", "upper_bound_forms"}


def documented_keys(doc_text):
    return set(re.findall(r"`([^`\n]+)`", doc_text))


def documents(text, path):
    decoder = json.JSONDecoder()
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos == len(text):
            return
        try:
            value, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            sys.exit(f"check-json-keys: {path}: invalid JSON: {e}")
        yield value


def collect(value, path, data_keys, seen):
    """Records in seen each key not yet seen -> the first path it is at."""
    if isinstance(value, dict):
        for key, child in value.items():
            child_path = f"{path}.{key}" if path else key
            if data_keys:
                child_path = f"{path}[<data>]"
            else:
                seen.setdefault(key, child_path)
            collect(child, child_path, not data_keys and key in DATA_MAPS,
                    seen)
    elif isinstance(value, list):
        for item in value:
            collect(item, f"{path}[]", False, seen)


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: check-json-keys.py DOC.md MODEL.json [MODEL.json ...]")
    with open(argv[1], encoding="utf-8") as f:
        documented = documented_keys(f.read())
    seen = {}
    count = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            for doc in documents(f.read(), path):
                collect(doc, "", False, seen)
                count += 1
    if count == 0:
        sys.exit("check-json-keys: no JSON document read")
    missing = sorted(k for k in seen if k not in documented)
    for key in missing:
        print(f"undocumented key: {key} (at {seen[key]})")
    print(f"{len(seen)} keys in {count} documents, {len(missing)} undocumented")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
