#!/usr/bin/env bash
# msvc-demangle-golden.sh
#
# Writes the MSVC demangler's expectation file: llvm-undname 19's answers (data, not our
# output) for decorated names from three sources, one row per name:
#   SOURCE <TAB> DECORATED <TAB> llvm-undname
# where llvm-undname is "error: Invalid mangled name" when it refuses the name.
# Sources:
#   fixture  the decorated (?...) S_PUB32 names of every MSF 7.0 PDB under
#            ../shared/fixtures/difs (llvm-pdbutil dump -publics; the test reads them again
#            with PdbSymbols and fails if one is missing here);
#   edge     scripts/demangle-corpus/msvc-edge-cases.txt: hand-written names of the grammar's
#            corners (operators, special names, thunks, string literals, template arguments,
#            back references, calling conventions, qualifiers) and truncated or bad ones;
#   mutant   10,000 deterministic mutations (truncation, substitution, insertion, deletion,
#            splicing; python's random with seed 45) of the fixture and edge names.
# Output: symbols/src/test/resources/io/symbolicate/symbols/demangle/undname-golden.tsv.gz.
# Needs llvm-19 (llvm-undname-19, llvm-pdbutil-19) and python3.
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
SHARED=${SHARED:-$ROOT/../shared}
OUT=$ROOT/symbols/src/test/resources/io/symbolicate/symbols/demangle/undname-golden.tsv.gz
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

find "$SHARED/fixtures/difs" -type f \( -iname '*.pdb' \) -print0 | sort -z |
  while IFS= read -r -d '' pdb; do
    if head -c 24 "$pdb" | grep -q 'Microsoft C/C++ MSF 7.00'; then
      llvm-pdbutil-19 dump -publics "$pdb" | grep -o '`[^`]*`' | tr -d '`' | grep '^?' || true
    fi
  done | sort -u >"$WORK/fixture"
grep -v '^$' "$ROOT/scripts/demangle-corpus/msvc-edge-cases.txt" | sort -u >"$WORK/edge"

python3 - "$WORK/fixture" "$WORK/edge" >"$WORK/mutant" <<'PY'
import random, sys
random.seed(45)
seeds = sorted({l.rstrip("\n") for f in sys.argv[1:] for l in open(f) if len(l.strip()) > 2})
alpha = "?@$0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcxyz"
out = set()
while len(out) < 10000:
    s = random.choice(seeds)
    r = random.random()
    if r < 0.2:
        s = s[: random.randrange(1, len(s) + 1)]
    elif r < 0.5:
        for _ in range(random.randint(1, 3)):
            i = random.randrange(1, len(s))
            s = s[:i] + random.choice(alpha) + s[i + 1 :]
    elif r < 0.7:
        i = random.randrange(1, len(s))
        s = s[:i] + random.choice(alpha) + s[i:]
    elif r < 0.85:
        i = random.randrange(1, len(s))
        s = s[:i] + s[i + 1 :]
    else:
        t = random.choice(seeds)
        s = s[: random.randrange(1, len(s))] + t[random.randrange(1, len(t)) :]
    if s:
        out.add(s)
print("\n".join(sorted(out)))
PY

for src in fixture edge mutant; do
  # on stdout llvm-undname prints the name, then its demangling and an empty line, or only an
  # empty line when it refuses the name (the error goes to stderr; it then exits 1)
  { llvm-undname-19 <"$WORK/$src" 2>/dev/null || true; } | awk -v s="$src" '
    st == 0 { n = $0; st = 1; next }
    st == 1 { if ($0 == "") { print s "\t" n "\terror: Invalid mangled name"; st = 0 } else { print s "\t" n "\t" $0; st = 2 }; next }
    st == 2 { st = 0 }' >"$WORK/$src.tsv"
  [ "$(wc -l <"$WORK/$src.tsv")" -eq "$(wc -l <"$WORK/$src")" ] || { echo "llvm-undname output misaligned for $src" >&2; exit 1; }
done
# a name keeps its first source
cat "$WORK/fixture.tsv" "$WORK/edge.tsv" "$WORK/mutant.tsv" | awk -F'\t' '!seen[$2]++' | gzip -9n >"$OUT"
echo "wrote $OUT: $(gzip -dc "$OUT" | cut -f1 | sort | uniq -c | tr '\n' ' ')"
