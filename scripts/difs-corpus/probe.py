#!/usr/bin/env python3
"""Looks up addresses of every corpus binary with several symbolizers and writes cases.json.

Usage: probe.py OUTDIR BINARIES_TSV JOBS (run by ../difs-corpus.sh, which documents the output).

Addresses: every line-table row start that is an instruction start in the disassembly, an
instruction inside each row (its start and, for instructions longer than one byte, one byte in),
sampled down to MAX_ADDRESSES per binary with row starts first, then addresses that
llvm-symbolizer places in inlined code, then the rest; all picks are deterministic.

Expected answer: the frames (innermost first) that at least two tools give and no other answer
gives as often. A tool that finds nothing abstains. Frames compare by a normalised key (see
function_key, path_key) because the tools spell names differently; the expected frame keeps the
name as the first agreeing tool in TOOL_ORDER prints it.
"""
import bisect
import concurrent.futures
import itertools
import json
import os
import re
import subprocess
import sys

MAX_ADDRESSES = 300
MAX_ROW_STARTS = 170
MAX_INLINED = 80
TOOL_ORDER = ["llvm-symbolizer", "llvm-gsymutil", "addr2line", "eu-addr2line"]
ELF_TOOLS = TOOL_ORDER
MACHO_TOOLS = ["llvm-symbolizer", "llvm-gsymutil"]


def run(args, cwd, check=True):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, errors="replace")
    if check and p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr[-2000:]))
    return p.stdout


# ----------------------------------------------------------------------------- normalisation
OPERATOR = re.compile(r"operator\s*(<=>|<<=|>>=|<<|>>|<=|>=|->\*|->|\(\)|\[\]|<|>)")
SUFFIX = re.compile(r"(\.(constprop|part|isra|cold|lto_priv|localalias|clone)(\.\d+)?)+$")


def strip_groups(s):
    """Removes balanced (...), <...>, [...] groups, keeping top-level text."""
    out = []
    depth = 0
    for ch in s:
        if ch in "(<[":
            depth += 1
        elif ch in ")>]" and depth > 0:
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def function_key(name):
    """The base name: no qualifiers, template arguments, parameters, return type or clone suffix."""
    if not name or name.startswith("??"):
        return None
    s = re.sub(r" \[clone [^\]]*\]", "", name.strip())
    ops = []

    def keep_op(m):
        ops.append("operator" + m.group(1))
        return "\x00%d\x00" % (len(ops) - 1)

    s = OPERATOR.sub(keep_op, s)
    s = strip_groups(s)
    s = re.sub(r"\b(const|volatile)\s*$", "", s).strip()
    s = s.split("::")[-1].strip().split(" ")[-1]
    s = SUFFIX.sub("", s)
    s = re.sub(r"\x00(\d+)\x00", lambda m: ops[int(m.group(1))], s)
    return s or None


def path_key(path):
    if not path or path.startswith("??"):
        return None
    return os.path.normpath(path)


def frame(function, file, line):
    line = int(line) if str(line).isdigit() else 0
    return {"function": function if function and not function.startswith("??") else None,
            "file": path_key(file), "line": line}


def answer_key(frames):
    return tuple((function_key(f["function"]), f["file"], f["line"]) for f in frames)


def informative(frames):
    return any(f["function"] or f["file"] for f in frames)


# ----------------------------------------------------------------------------- tools
def llvm_symbolizer(lookup, arch, addrs, cwd):
    args = ["llvm-symbolizer-19", "--obj=" + lookup, "--inlines", "--output-style=JSON"]
    if arch:
        args.append("--default-arch=" + arch)
    out = run(args + ["0x%x" % a for a in addrs], cwd)
    result = {}
    for entry in json.loads(out):
        a = int(entry["Address"], 16)
        frames = [frame(s.get("FunctionName"), s.get("FileName"), s.get("Line", 0))
                  for s in entry.get("Symbol", [])]
        result[a] = frames
    return result


def gnu_addr2line(tool, lookup, addrs, cwd):
    """binutils addr2line and eu-addr2line, both with -a -f -i -C: an address line, then a
    function line and a location line per frame."""
    out = run([tool, "-a", "-f", "-i", "-C", "-e", lookup] + ["0x%x" % a for a in addrs], cwd,
              check=False)
    result = {}
    current = None
    lines = out.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.fullmatch(r"0x[0-9a-f]+", line):
            current = int(line, 16)
            result[current] = []
            i += 1
            continue
        if current is None or i + 1 >= len(lines):
            break
        name = line
        # eu-addr2line: "name inlined at file:line in caller" for inlined frames
        name = re.sub(r" inlined at .* in .*$", "", name)
        loc = lines[i + 1]
        loc = re.sub(r" \(discriminator \d+\)$", "", loc)
        m = re.fullmatch(r"(.*?):(\d+|\?)(?::\d+)?", loc)
        file, ln = (m.group(1), m.group(2)) if m else (loc, "0")
        result[current].append(frame(name, file, ln))
        i += 2
    return result


GSYM_LINE = re.compile(r"^\s*(?:0x[0-9a-f]+: )?(\S.*?)(?: \+ \d+)? @ (.*?):(\d+)( \[inlined\])?$")


def gsymutil(lookup, arch, addrs, cwd, work):
    gsym = os.path.join(work, re.sub(r"[^A-Za-z0-9]", "_", lookup + "-" + (arch or "")) + ".gsym")
    args = ["llvm-gsymutil-19", "--convert=" + lookup, "--out-file=" + gsym, "--quiet"]
    if arch:
        args.append("--arch=" + arch)
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(gsym):
        return {}
    out = run(["llvm-gsymutil-19", gsym] + ["--address=0x%x" % a for a in addrs], cwd, check=False)
    os.unlink(gsym)
    result = {}
    current = None
    names = []
    for line in out.splitlines():
        m = re.match(r"^0x([0-9a-f]+): ", line)
        if m:
            current = int(m.group(1), 16)
            result[current] = []
        if current is None:
            continue
        g = GSYM_LINE.match(line)
        if g:
            result[current].append(frame(g.group(1), g.group(2), g.group(3)))
            names.append(g.group(1))
    demangled = demangle(names)
    for frames in result.values():
        for f in frames:
            if f["function"]:
                f["function"] = demangled.get(f["function"], f["function"])
    return result


def demangle(names):
    unique = sorted(set(n for n in names if n))
    if not unique:
        return {}
    out = subprocess.run(["llvm-cxxfilt-19"], input="\n".join(unique) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    return dict(zip(unique, out))


# ----------------------------------------------------------------------------- addresses
def line_rows(path, arch, cwd):
    args = ["llvm-dwarfdump-19", "--debug-line", path]
    if arch:
        args.append("--arch=" + arch)
    rows = []
    for line in run(args, cwd).splitlines():
        m = re.match(r"^0x([0-9a-f]{16})\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s*(.*)$", line)
        if m:
            rows.append((int(m.group(1), 16), "end_sequence" in m.group(2)))
    return rows


def instructions(path, arch, cwd):
    """Instruction start -> length, from llvm-objdump's disassembly of the executable sections."""
    args = ["llvm-objdump-19", "-d", "--no-show-raw-insn", path]
    if arch:
        args.append("--arch=" + arch)
    starts = []
    for line in run(args, cwd).splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s", line)
        if m:
            starts.append(int(m.group(1), 16))
    starts = sorted(set(starts))
    lengths = {}
    for a, b in zip(starts, starts[1:]):
        lengths[a] = min(b - a, 15)
    if starts:
        lengths[starts[-1]] = 4 if arch == "arm64" else 1
    return lengths


def spread(items, n):
    """n items spread evenly over the sorted list (deterministic)."""
    items = sorted(items)
    if len(items) <= n:
        return items
    return [items[(i * len(items)) // n] for i in range(n)]


def candidates(rows, insns):
    starts = sorted(set(a for a, end in rows if not end and a in insns))
    by_addr = sorted(set(a for a, _ in rows))
    inner = set()
    for a in starts:
        k = bisect.bisect_right(by_addr, a)
        if k >= len(by_addr):
            continue
        nxt = by_addr[k]
        mid = (a + nxt) // 2
        ins = max((i for i in range(a, mid + 1) if i in insns), default=a)
        if ins != a:
            inner.add(ins)
        if insns.get(ins, 1) > 1:
            inner.add(ins + insns[ins] // 2)
    return starts, sorted(inner - set(starts))


# ----------------------------------------------------------------------------- one binary
def probe(out, work, fields):
    case, binary, debug, packaging, compiler, flags, fmt, arch, lookup = fields
    cwd = os.path.join(out, case)
    lookup_abs = os.path.join(out, lookup)
    binary_abs = os.path.join(out, binary)
    march = arch if fmt == "macho" else None
    # the file with the line tables and DWARF: the .debug of a debuglink, else what tools read
    dwarf_file = os.path.join(out, debug) if packaging == "debuglink" else lookup_abs
    rows = line_rows(dwarf_file, march, cwd)
    insns = instructions(binary_abs, march, cwd)
    starts, inner = candidates(rows, insns)
    llvm_all = llvm_symbolizer(lookup_abs, march, starts + inner, cwd)
    inlined = [a for a in starts + inner if len(llvm_all.get(a, [])) > 1]
    chosen = set(spread(starts, MAX_ROW_STARTS))
    chosen.update(spread([a for a in inlined if a not in chosen], MAX_INLINED))
    rest = [a for a in starts + inner if a not in chosen]
    chosen.update(spread(rest, max(0, MAX_ADDRESSES - len(chosen))))
    addrs = sorted(chosen)

    tools = MACHO_TOOLS if fmt == "macho" else ELF_TOOLS
    answers = {"llvm-symbolizer": {a: llvm_all.get(a, []) for a in addrs}}
    if "llvm-gsymutil" in tools:
        answers["llvm-gsymutil"] = gsymutil(dwarf_file, march, addrs, cwd, work)
    if "addr2line" in tools:
        answers["addr2line"] = gnu_addr2line("addr2line", lookup_abs, addrs, cwd)
    if "eu-addr2line" in tools:
        answers["eu-addr2line"] = gnu_addr2line("eu-addr2line", lookup_abs, addrs, cwd)

    expected, disagreements = [], []
    for a in addrs:
        votes = {}
        per_tool = {}
        for tool in tools:
            frames = answers[tool].get(a, [])
            per_tool[tool] = frames
            if informative(frames):
                votes.setdefault(answer_key(frames), []).append(tool)
        ranked = sorted(votes.items(), key=lambda kv: -len(kv[1]))
        best = ranked[0] if ranked else None
        tie = len(ranked) > 1 and len(ranked[1][1]) == len(best[1])
        if best and len(best[1]) >= 2 and not tie:
            agreed = [t for t in TOOL_ORDER if t in best[1]]
            entry = {"address": "0x%x" % a, "frames": [], "agreed": agreed}
            frames = per_tool[agreed[0]]
            for f in frames:
                entry["frames"].append({"function": f["function"],
                                        "function_key": function_key(f["function"]),
                                        "file": f["file"], "line": f["line"]})
            others = {t: per_tool[t] for t in tools if t not in agreed}
            if others:
                entry["others"] = others
            expected.append(entry)
        else:
            disagreements.append({"address": "0x%x" % a, "answers": per_tool})
    return {
        "name": case,
        "case": case,
        "binary": binary,
        "debug_file": debug or None,
        "lookup_file": lookup,
        "packaging": packaging,
        "compiler": compiler,
        "compiler_version": COMPILER_VERSIONS[compiler],
        "flags": flags,
        "format": fmt,
        "arch": arch,
        "identity": identity(binary_abs, lookup_abs, fmt, march, cwd),
        "tools": tools,
        "row_starts": len(starts),
        "addresses": expected,
        "disagreements": disagreements,
    }


def identity(binary, lookup, fmt, arch, cwd):
    if fmt == "elf":
        notes = run(["readelf", "-n", binary], cwd)
        m = re.search(r"Build ID: ([0-9a-f]+)", notes)
        return {"build_id": m.group(1) if m else None}
    ids = {}
    for key, path in (("uuid", binary), ("debug_uuid", lookup)):
        out = run(["llvm-dwarfdump-19", "--uuid", "--arch=" + arch, path], cwd)
        m = re.search(r"UUID: ([0-9A-F-]+)", out)
        ids[key] = m.group(1) if m else None
    return ids


list_count = {}
COMPILER_VERSIONS = {}


def render(doc):
    """JSON with one line per address: readable in a diff, a third of the indented size."""
    compact = lambda v: json.dumps(v, separators=(",", ":"))
    head = {k: v for k, v in doc.items() if k != "cases"}
    lines = [json.dumps(head, indent=1)[:-2] + ",", ' "cases": [']
    for i, c in enumerate(doc["cases"]):
        fields = {k: v for k, v in c.items() if k not in ("addresses", "disagreements")}
        lines.append("  " + compact(fields)[:-1] + ",")
        for key in ("addresses", "disagreements"):
            items = c[key]
            lines.append('   "%s": [' % key)
            lines.extend("    " + compact(e) + ("," if j + 1 < len(items) else "")
                         for j, e in enumerate(items))
            lines.append("   ]" + ("," if key == "addresses" else ""))
        lines.append("  }" + ("," if i + 1 < len(doc["cases"]) else ""))
    lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def version(args):
    return subprocess.run(args, capture_output=True, text=True).stdout.splitlines()[0].strip()


def main():
    out, tsv, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    work = os.path.join(out, ".work")
    with open(tsv) as f:
        binaries = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    for b in binaries:
        list_count[b[0]] = list_count.get(b[0], 0) + 1
    COMPILER_VERSIONS["gcc"] = version(["gcc-12", "--version"])
    COMPILER_VERSIONS["clang"] = version(["clang-19", "--version"])
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        cases = list(ex.map(lambda b: probe(out, work, b), binaries))
    for c in cases:
        if c["format"] == "macho" and c["packaging"] == "fat-dsym":
            c["name"] = c["case"] + "/" + c["arch"]
        elif list_count[c["case"]] > 1:
            c["name"] = c["case"] + "/" + os.path.basename(c["binary"])
    cases.sort(key=lambda c: c["name"])

    pairs = {}
    for c in cases:
        for e in c["addresses"]:
            agreed = set(e["agreed"])
            for t1, t2 in itertools.combinations(TOOL_ORDER, 2):
                if t1 in c["tools"] and t2 in c["tools"]:
                    p = pairs.setdefault(t1 + " & " + t2, {"addresses": 0, "agree": 0})
                    p["addresses"] += 1
                    if t1 in agreed and t2 in agreed:
                        p["agree"] += 1
        for d in c["disagreements"]:
            for t1, t2 in itertools.combinations(TOOL_ORDER, 2):
                if t1 in c["tools"] and t2 in c["tools"]:
                    p = pairs.setdefault(t1 + " & " + t2, {"addresses": 0, "agree": 0})
                    p["addresses"] += 1
                    a1, a2 = d["answers"][t1], d["answers"][t2]
                    if informative(a1) and answer_key(a1) == answer_key(a2):
                        p["agree"] += 1
    per_tool = {}
    for c in cases:
        for e in c["addresses"]:
            for t in c["tools"]:
                s = per_tool.setdefault(t, {"addresses": 0, "matches_expected": 0})
                s["addresses"] += 1
                if t in e["agreed"]:
                    s["matches_expected"] += 1
    summary = {
        "binaries": len(cases),
        "cases": len(set(c["case"] for c in cases)),
        "addresses": sum(len(c["addresses"]) + len(c["disagreements"]) for c in cases),
        "expected": sum(len(c["addresses"]) for c in cases),
        "disagreements": sum(len(c["disagreements"]) for c in cases),
        "tool_pairs": dict(sorted(pairs.items())),
        "tools_vs_expected": per_tool,
    }
    doc = {
        "generator": "scripts/difs-corpus.sh",
        "tools": {
            "llvm-symbolizer": "llvm-symbolizer-19 --inlines --output-style=JSON",
            "llvm-gsymutil": "llvm-gsymutil-19 --convert, --address; names by llvm-cxxfilt-19",
            "addr2line": version(["addr2line", "--version"]) + ": addr2line -a -f -i -C -e",
            "eu-addr2line": version(["eu-addr2line", "--version"]) + ": eu-addr2line -a -f -i -C -e",
        },
        "llvm_version": version(["clang-19", "--version"]),
        "normalisation": "frames compare by (function base name: no qualifiers, template "
                         "arguments, parameters, return type, [clone] or .constprop/.part/.isra/"
                         ".cold suffixes; os.path.normpath of the file; line, 0 when unknown); "
                         "columns and discriminators dropped; a tool with no answer abstains",
        "summary": summary,
        "cases": cases,
    }
    with open(os.path.join(out, "cases.json"), "w") as f:
        f.write(render(doc))
    print(json.dumps(summary, indent=1), file=sys.stderr)


if __name__ == "__main__":
    main()
