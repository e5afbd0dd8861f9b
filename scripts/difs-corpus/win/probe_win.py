#!/usr/bin/env python3
"""Looks up addresses of every PE + PDB pair of the Windows corpus and writes cases.json.

Usage: probe_win.py OUTDIR BINARIES_TSV JOBS (run by ../../difs-win-corpus.sh, which documents
the output).

Addresses (RVAs): every C13 line row start of `llvm-pdbutil dump -l` that is an instruction start
in llvm-objdump's disassembly, then an instruction inside each row (its start and, for
instructions longer than one byte, one byte in), sampled down to MAX_ADDRESSES per binary with
row starts first, then addresses llvm-symbolizer places in inlined code, then the rest.

Expected answer: llvm-symbolizer 19's frames (--inlines --relative-address, innermost first)
where the outermost frame's file and line are those of the line row that llvm-pdbutil dumps for
the address (the row whose offset is the last one <= the address in its function's range; of two
rows at one offset the later one, as Breakpad and DIA answer). Elsewhere the address is a
disagreement with both answers. Frames keep llvm-symbolizer's spelling and a normalised key
(function_key of ../probe.py: the base name without qualifiers, template arguments, parameters).
"""
import bisect
import concurrent.futures
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from probe import function_key, path_key, frame, answer_key  # noqa: E402

MAX_ADDRESSES = 300
MAX_ROW_STARTS = 170
MAX_INLINED = 80
TOOLS = ["llvm-symbolizer", "llvm-pdbutil"]


def run(args, cwd):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, errors="replace")
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr[-2000:]))
    return p.stdout


def headers(image, cwd):
    """ImageBase, section RVAs (1-based as CodeView numbers them) and the identity, by llvm-readobj."""
    out = run(["llvm-readobj-19", "--file-headers", "--sections", "--coff-debug-directory", image], cwd)
    base = int(re.search(r"ImageBase: 0x([0-9A-Fa-f]+)", out).group(1), 16)
    stamp = int(re.search(r"TimeDateStamp: .*\(0x([0-9A-Fa-f]+)\)", out).group(1), 16)
    size = int(re.search(r"SizeOfImage: (\d+)", out).group(1))
    guid = re.search(r"PDBGUID: \{([0-9A-Fa-f-]+)\}", out).group(1).replace("-", "")
    age = int(re.search(r"PDBAge: (\d+)", out).group(1))
    machine = re.search(r"Machine: (\S+)", out).group(1)
    sections = [int(m.group(1), 16) for m in re.finditer(r"VirtualAddress: 0x([0-9A-Fa-f]+)", out)]
    identity = {"code_id": "%08X%X" % (stamp, size), "debug_id": "%s%X" % (guid.upper(), age),
                "machine": machine}
    return base, sections, identity


FILE_LINE = re.compile(r"^(\S.*?) \((?:MD5: [0-9A-F]+|None|SHA1: [0-9A-F]+|SHA256: [0-9A-F]+)\)\s*$")
RANGE = re.compile(r"^\s+([0-9A-F]{4}):([0-9A-F]{8})-([0-9A-F]{8}), line/addr entries = \d+")
ROW = re.compile(r"(\d+)(?::\d+)?\s+([0-9A-F]{8})\s*[!]?")


def pdb_lines(pdb, sections, cwd):
    """Every C13 line row as (rva, end_rva, file, line): the rows of one function's range sorted
    by offset (stable: the later of two rows at one offset answers), each up to the next offset;
    and the (file, line) of the rows a later row at the same offset shadows, by RVA."""
    out = run(["llvm-pdbutil-19", "dump", "-l", pdb], cwd)
    ranges = {}
    current_file = None
    current = None
    for text in out.splitlines():
        if text.startswith("Mod "):
            current_file = None
            current = None
            continue
        m = FILE_LINE.match(text)
        if m:
            current_file = m.group(1)
            continue
        m = RANGE.match(text)
        if m:
            sec = int(m.group(1), 16)
            start = sections[sec - 1] + int(m.group(2), 16)
            end = sections[sec - 1] + int(m.group(3), 16)
            current = ranges.setdefault((start, end), [])
            sec_rva = sections[sec - 1]
            continue
        # a module without a debug stream (an import library's) is dumped with the previous
        # module's rows and "(unknown file name offset 0)": not rows of its own
        if current is not None and current_file is not None and text.startswith("   "):
            for row in ROW.finditer(text):
                current.append((sec_rva + int(row.group(2), 16), current_file, int(row.group(1))))
    rows = []
    shadowed = {}
    for (start, end), entries in ranges.items():
        entries.sort(key=lambda e: e[0])
        for i, (rva, f, line) in enumerate(entries):
            if i + 1 < len(entries) and entries[i + 1][0] == rva:
                shadowed.setdefault(rva, []).append((path_key(f), line))
            nxt = end
            for later in entries[i + 1:]:
                if later[0] > rva:
                    nxt = later[0]
                    break
            if nxt > rva:
                rows.append((rva, nxt, f, line))
    rows.sort()
    return rows, shadowed


def instructions(image, base, cwd):
    """RVA -> length of every instruction llvm-objdump disassembles in the image."""
    out = run(["llvm-objdump-19", "-d", "--no-show-raw-insn", image], cwd)
    addrs = []
    for text in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s", text)
        if m:
            addrs.append(int(m.group(1), 16) - base)
    lengths = {}
    for a, b in zip(addrs, addrs[1:]):
        if b > a:
            lengths[a] = b - a
    return lengths


def symbolize(image, addrs, cwd):
    out = run(["llvm-symbolizer-19", "--obj=" + image, "--inlines", "--relative-address",
               "--output-style=JSON"] + ["0x%x" % a for a in addrs], cwd)
    result = {}
    for entry in json.loads(out):
        frames = [frame(s.get("FunctionName"), s.get("FileName"), s.get("Line", 0))
                  for s in entry.get("Symbol", [])]
        result[int(entry["Address"], 16)] = [f for f in frames if f["function"] or f["file"]]
    return result


def pick_addresses(rows, lengths):
    starts = [r[0] for r in rows if r[0] in lengths]
    inside = []
    insns = sorted(lengths)
    for rva, end, _, _ in rows:
        i = bisect.bisect_right(insns, rva)
        j = bisect.bisect_left(insns, end)
        if j - i >= 1:
            mid = insns[(i + j) // 2] if (i + j) // 2 < j else insns[i]
            inside.append(mid)
            if lengths[mid] > 1:
                inside.append(mid + 1)
    return spread(starts, MAX_ROW_STARTS), sorted(set(inside) - set(starts))


def spread(items, n):
    items = sorted(set(items))
    if len(items) <= n:
        return items
    return [items[i * len(items) // n] for i in range(n)]


def probe(outdir, entry):
    binary, debug, packaging, compiler, version, flags, arch = entry
    cwd = os.path.join(outdir, os.path.dirname(binary))
    image = os.path.basename(binary)
    pdb = os.path.basename(debug)
    base, sections, identity = headers(image, cwd)
    rows, shadowed = pdb_lines(pdb, sections, cwd)
    lengths = instructions(image, base, cwd)
    starts, inside = pick_addresses(rows, lengths)
    answers = symbolize(image, sorted(set(starts) | set(inside)), cwd)
    inlined = [a for a in inside if len(answers.get(a, [])) > 1]
    others = [a for a in inside if a not in set(inlined)]
    chosen = list(starts)
    chosen += spread(inlined, min(MAX_INLINED, MAX_ADDRESSES - len(chosen)))
    rest = MAX_ADDRESSES - len(chosen)
    chosen += spread(others, max(0, rest))
    chosen = sorted(set(chosen))[:MAX_ADDRESSES]
    row_starts = [r[0] for r in rows]
    lookups, disagreements = [], []
    agree = 0
    for a in chosen:
        i = bisect.bisect_right(row_starts, a) - 1
        row = rows[i] if i >= 0 and rows[i][0] <= a < rows[i][1] else None
        pdbutil = [frame(None, row[2], row[3])] if row else []
        ours = answers.get(a, [])
        outer = ours[-1] if ours else None
        same = row is not None and outer is not None and outer["file"] == path_key(row[2]) \
            and outer["line"] == row[3]
        address = "0x%x" % a
        if same:
            agree += 1
            lookups.append({"address": address, "agreed": TOOLS, "others": {},
                            "frames": [dict(f, function_key=function_key(f["function"]))
                                       for f in ours]})
        else:
            # llvm-symbolizer answers the first of two rows at one offset, Breakpad (and we) the
            # later one: a known, documented difference (docs/native.md)
            kind = None
            if row is not None and outer is not None and row[0] == a \
                    and (outer["file"], outer["line"]) in shadowed.get(a, []):
                kind = "two rows at one offset"
            disagreements.append({"address": address, "kind": kind,
                                  "answers": {"llvm-symbolizer": ours, "llvm-pdbutil": pdbutil}})
    name = binary.replace("/", ":")
    return {
        "name": name, "case": os.path.dirname(binary), "binary": binary, "debug_file": debug,
        "lookup_file": binary, "packaging": packaging, "compiler": compiler,
        "compiler_version": version, "flags": flags, "format": "pe", "arch": arch,
        "identity": identity, "tools": TOOLS, "row_starts": len(rows),
        "addresses": lookups, "disagreements": disagreements,
    }, agree, len(chosen)


def main():
    outdir, tsv, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    entries = [line.rstrip("\n").split("\t") for line in open(tsv) if line.strip()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda e: probe(outdir, e), entries))
    cases = [r[0] for r in results]
    addresses = sum(r[2] for r in results)
    summary = {
        "binaries": len(cases), "cases": len({c["case"] for c in cases}),
        "addresses": addresses, "expected": sum(len(c["addresses"]) for c in cases),
        "disagreements": sum(len(c["disagreements"]) for c in cases),
        "inlined": sum(1 for c in cases for l in c["addresses"] if len(l["frames"]) > 1),
        "tool_pairs": {"llvm-symbolizer & llvm-pdbutil": {"addresses": addresses,
                                                           "agree": sum(r[1] for r in results)}},
    }
    with open(os.path.join(outdir, "cases.json"), "w") as f:
        json.dump({"summary": summary, "cases": cases}, f, indent=1, sort_keys=True)
        f.write("\n")
    print("[difs-win-corpus] %d binaries, %d addresses, %d expected (%d inlined), %d disagreements"
          % (summary["binaries"], addresses, summary["expected"], summary["inlined"],
             summary["disagreements"]), file=sys.stderr)


if __name__ == "__main__":
    main()
