#!/usr/bin/env python3
"""Compares our lookups of ceph-osd with llvm-symbolizer's: function, file, line, inline chain.

Usage: agree.py LLVM_JSON OURS_JSONL   (written by ../ceph-debug-bench.sh)

LLVM_JSON: llvm-symbolizer-19 --output-style=JSON, one object per line (Symbol: innermost first).
OURS_JSONL: `symbolicator native lookup`, one object per line (inlines innermost first, then the
function). Frames compare as the generated corpus compares them (difs-corpus/probe.py): the base
function name (no qualifiers, template arguments, parameters or clone suffix), the normalised
path, the line. Prints the agreement and the rest by cause, with a few examples of each.

Two name normalisations, reported apart (the raw figure is printed too): a name llvm-symbolizer
prints still mangled (its demangler gave up: `_ZSt11make_shared...`) is demangled by binutils'
c++filt; two names that differ only in whitespace are the same (llvm prints `operator<<T>` and
`A<B<C>>` where c++filt and we print `operator< <T>` and `A<B<C> >`, which the base-name rule
reads as different operators).
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "difs-corpus"))
from probe import function_key, path_key  # noqa: E402


CLONE = re.compile(r"( \(\.[a-z_]+(\.\d+)?\))+$|( \[clone [^\]]*\])+$")


class Key(tuple):
    """(base name, path, line); equal also when the full names differ only in whitespace."""

    def __new__(cls, function, file, line, loose):
        k = super().__new__(cls, (function_key(function), path_key(file), int(line or 0)))
        k.spaceless = re.sub(r"\s+", "", CLONE.sub("", function.strip())) if loose and function else None
        return k

    def __eq__(self, other):
        if tuple.__eq__(self, other):
            return True
        return (self[1:] == other[1:] and self.spaceless is not None
                and self.spaceless == getattr(other, "spaceless", None))

    __hash__ = tuple.__hash__


DEMANGLED = {}


def demangle_all(names):
    """c++filt over the mangled names llvm-symbolizer left as they were."""
    todo = sorted(n for n in names if n.startswith("_Z") and n not in DEMANGLED)
    if not todo:
        return
    out = subprocess.run(["c++filt"], input="\n".join(todo) + "\n", capture_output=True,
                         text=True, check=True).stdout.split("\n")
    for n, d in zip(todo, out):
        DEMANGLED[n] = d


def theirs(entry, loose):
    frames = []
    for s in entry.get("Symbol", []):
        fn = s.get("FunctionName")
        if fn in (None, "", "??") and s.get("FileName") in (None, "", "??"):
            continue
        if loose and fn:
            fn = DEMANGLED.get(fn, fn)
        frames.append(Key(fn, s.get("FileName"), s.get("Line", 0), loose))
    return frames


def ours(entry, loose):
    if not entry.get("found"):
        return []
    frames = [Key(i.get("function"), i.get("file"), i.get("line"), loose)
              for i in entry.get("inlines", [])]
    frames.append(Key(entry.get("function"), entry.get("file"), entry.get("line"), loose))
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
    demangle_all({s.get("FunctionName") or "" for e in llvm.values() for s in e.get("Symbol", [])})
    total = len(llvm)
    raw = sum(1 for addr in llvm if ours(mine.get(addr, {}), False) == theirs(llvm[addr], False))
    print("agreement, names as llvm-symbolizer prints them: %d of %d (%.2f%%)"
          % (raw, total, 100.0 * raw / total))
    agreed = 0
    causes = {}
    examples = {}
    for addr in sorted(llvm):
        a = ours(mine.get(addr, {}), True)
        b = theirs(llvm[addr], True)
        if a == b:
            agreed += 1
            continue
        c = cause(a, b)
        causes[c] = causes.get(c, 0) + 1
        if len(examples.setdefault(c, [])) < 3:
            examples[c].append("%x: ours %s llvm %s" % (addr, a, b))
    print("agreement (llvm's mangled names demangled by c++filt, names equal but for whitespace):"
          " %d of %d (%.2f%%)" % (agreed, total, 100.0 * agreed / total))
    for c, n in sorted(causes.items(), key=lambda kv: -kv[1]):
        print("  %-32s %d" % (c, n))
        for e in examples[c]:
            print("      e.g. " + e[:400])


if __name__ == "__main__":
    main()
