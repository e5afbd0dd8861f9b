#!/usr/bin/env bash
# scripts/pdb-bench.sh [RUNS]   (default 5)
#
# The PDB conversion benchmark of issue 45 (docs/benchmarks.md, "PDB conversion"): for the largest
# PDB of ../shared/fixtures/difs and a generated one of >= 50 MB, in one JVM and in turns, RUNS
# rounds of
#   pdbutil  llvm-pdbutil-19 dump -l -symbols PDB > /dev/null   (a process; wall, and user+sys)
#   pdb      our conversion of the PDB into the native table, inlines included, the image beside
#            it (DebugFileTables.convert, as native lookup --sym FILE.pdb converts it)
#   sym      our conversion of the .sym native dump-syms --inlines writes from the same PDB
#            (NativeSymbols.convert; the .sym is written once, before the rounds)
# after two warm-up rounds of ours, and prints the medians and the ratios pdb/pdbutil (target < 1)
# and pdb/sym (target <= 1.5) with the load average. Ours is timed warm (the JIT has compiled the
# converter, as in the long-running service); the cold CLI, JVM start included, is printed too
# (./symbolicator native lookup --sym, median of RUNS).
#
# The generated PDB (../bench-data/pdb-bench/big.pdb, made once and kept): scripts/pdb-bench/
# genbig.py writes UNITS (default 70) units of 500 functions, each with its own function template
# instance and loops over __forceinline helpers (inline sites 3-4 deep); clang-cl 19 /Z7 /Od
# (clang inlines __forceinline at /Od too, and /Od compiles ~10x faster than /O2) and lld-link 19
# /debug. ~60 s of CPU to compile.
# Needs: clang-19 lld-19 llvm-19 python3, and a built benchmarks jar:
#   mvn -q -pl symbols,benchmarks -am package -DskipTests
# Env: UNITS, BIG_DIR (where big.pdb is kept), JOBS (parallel compiles, default nproc).
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
cd "$ROOT"
RUNS=${1:-5}
UNITS=${UNITS:-70}
JOBS=${JOBS:-$(nproc)}
BIG=${BIG_DIR:-$ROOT/../bench-data/pdb-bench}
JAR=$ROOT/benchmarks/target/benchmarks.jar
[ -f "$JAR" ] || { echo "no $JAR: mvn -q -pl symbols,benchmarks -am package -DskipTests" >&2; exit 1; }
for c in clang-cl-19 lld-link-19 llvm-pdbutil-19 python3; do
  command -v "$c" > /dev/null || { echo "missing $c: apt-get install clang-19 lld-19 llvm-19 python3" >&2; exit 1; }
done

# the largest PDB of the fixtures (by size, then path), with its image beside it when it has one
FIXTURE=$(find "$ROOT/../shared/fixtures/difs" -iname '*.pdb' -printf '%s %p\n' | sort -k1,1n -k2 | tail -1 | cut -d' ' -f2-)
FIXTURE=$(readlink -f "$FIXTURE")

if [ ! -f "$BIG/big.pdb" ]; then
  echo "generating $BIG/big.pdb ($UNITS units of 500 functions)" >&2
  rm -rf "$BIG" && mkdir -p "$BIG/src" "$BIG/obj"
  python3 "$ROOT/scripts/pdb-bench/genbig.py" "$BIG/src" "$UNITS" 500
  T0=$(date +%s)
  ( cd "$BIG/obj" && ls ../src/*.cc | xargs -P "$JOBS" -I{} sh -c \
      'f={}; b=$(basename "$f" .cc); nice -n 15 clang-cl-19 --target=x86_64-pc-windows-msvc /Z7 /Od /GS- /GR- /EHs-c- -gno-codeview-command-line /c "/Fo$b.obj" -- "$f"' )
  ( cd "$BIG" && lld-link-19 /debug /nodefaultlib /entry:big_start /subsystem:console /Brepro \
      /pdbaltpath:big.pdb /out:big.exe /pdb:big.pdb obj/*.obj )
  rm -rf "$BIG/obj"
  echo "generated in $(( $(date +%s) - T0 )) s: $(stat -c %s "$BIG/big.pdb") bytes" >&2
fi

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD); runs $RUNS"
nice -n 15 java -Xmx2g -cp "$JAR" io.symbolicate.bench.nativecode.PdbConvertProbe "$RUNS" "$FIXTURE" "$BIG/big.pdb"

# the cold command line (JVM start, JIT warming up on the way), for scale
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export SYMBOLICATOR_SKIP_BUILD=1
for pdb in "$FIXTURE" "$BIG/big.pdb"; do
  ws=()
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e" -o "$TMP/t" nice -n 15 ./symbolicator native lookup --sym "$pdb" 0x1000 > /dev/null 2>&1 || true
    ws+=("$(tail -1 "$TMP/t")")
  done
  echo "cold CLI native lookup --sym $(basename "$pdb") 0x1000: median wall $(printf '%s\n' "${ws[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p") s"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
