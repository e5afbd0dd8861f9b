#!/usr/bin/env python3
"""Compares our lookups of ceph-osd with llvm-symbolizer's: function, file, line, inline chain.

Usage: agree.py LLVM_JSON OURS_JSONL   (written by ../ceph-debug-bench.sh)

LLVM_JSON: llvm-symbolizer-19 --output-style=JSON, one object per line (Symbol: innermost first).
OURS_JSONL: `symbolicator native lookup`, one object per line (inlines innermost first, then the
function). Frames compare as the generated corpus compares them (difs-corpus/probe.py): the base
function name (no qualifiers, template arguments, parameters or clone suffix), the normalised
path, the line. Prints the agreement and the rest by cause, with a few examples of each.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "difs-corpus"))
from probe import function_key, path_key  # noqa: E402


def key(function, file, line):
    return (function_key(function), path_key(file), int(line or 0))


def theirs(entry):
    return [key(s.get("FunctionName"), s.get("FileName"), s.get("Line", 0))
            for s in entry.get("Symbol", [])
            if s.get("FunctionName") not in (None, "", "??") or s.get("FileName") not in (None, "", "??")]


def ours(entry):
    if not entry.get("found"):
        return []
    frames = [key(i.get("function"), i.get("file"), i.get("line")) for i in entry.get("inlines", [])]
    frames.append(key(entry.get("function"), entry.get("file"), entry.get("line")))
    return frames


def cause(a, b):
    if not a:
        return "not found by us"
    if not b:
        return "not found by llvm-symbolizer"
    if len(a) != len(b):
        return "inline depth %s" % ("shorter" if len(a) < len(b) else "longer")
    for x, y in zip(a, b):
        if x[0] != y[0]:
            return "function name"
        if x[1] != y[1]:
            return "file"
        if x[2] != y[2]:
            return "line (0 on one side)" if 0 in (x[2], y[2]) else "line"
    return "other"


def main():
    with open(sys.argv[1]) as f:
        llvm = {int(e["Address"], 16): e for e in map(json.loads, filter(str.strip, f))}
    with open(sys.argv[2]) as f:
        mine = {int(e["address"], 16): e for e in map(json.loads, filter(str.strip, f))}
    agreed = 0
    causes = {}
    examples = {}
    for addr in sorted(llvm):
        a = ours(mine.get(addr, {}))
        b = theirs(llvm[addr])
        if a == b:
            agreed += 1
            continue
        c = cause(a, b)
        causes[c] = causes.get(c, 0) + 1
        if len(examples.setdefault(c, [])) < 3:
            examples[c].append("%x: ours %s llvm %s" % (addr, a, b))
    total = len(llvm)
    print("agreement: %d of %d (%.2f%%)" % (agreed, total, 100.0 * agreed / total))
    for c, n in sorted(causes.items(), key=lambda kv: -kv[1]):
        print("  %-32s %d" % (c, n))
        for e in examples[c]:
            print("      e.g. " + e[:400])


if __name__ == "__main__":
    main()
