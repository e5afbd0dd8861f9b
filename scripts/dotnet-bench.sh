#!/usr/bin/env bash
# dotnet-bench.sh [RUNS]
#
# Portable PDB lookups per second, ours against Mono.Cecil's (issue 46): each side, per round,
# loads symbolic's portable.pdb (Cecil: with integration.dll, as it reads symbols for a module)
# and looks up every (method row, IL offset) the PDB has sequence points for, plus the offset
# after each, REPEAT times. Each process reports the median rate of its warm rounds; the script
# runs both sides RUNS times (default 5) alternately and prints the medians, their ratio and the
# load average. Needs mono-runtime, mono-mcs, libmono-cecil-private-cil (docs/dotnet.md).
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
RUNS=${1:-5}
ROUNDS=${ROUNDS:-40}
REPEAT=${REPEAT:-2000}
F=${SHARED:-$ROOT/../shared}/fixtures/difs/getsentry-symbolic/testutils/windows
CECIL=$(ls -d /usr/lib/mono/gac/Mono.Cecil/0.11.*/Mono.Cecil.dll | head -1)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$ROOT"
if [ -z "${NO_BUILD:-}" ] || [ ! -f symbols/target/fuzz-classpath.txt ]; then
  mvn -q -o -pl symbols test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/fuzz-classpath.txt -Dmdep.includeScope=test
fi
CP="symbols/target/test-classes:symbols/target/classes:$(cat symbols/target/fuzz-classpath.txt)"
mcs -out:"$TMP/bench.exe" -r:"$CECIL" scripts/cecil/CecilLookupBench.cs
# the frames: every point's (row, offset) and the offset after it, from Cecil's golden
awk -F'\t' '{print $1, $2; print $1, $2 + 1}' \
  symbols/src/test/resources/io/symbolicate/symbols/dotnet/cecil/portable.tsv > "$TMP/frames"
ours=(); cecil=()
for i in $(seq "$RUNS"); do
  ours+=("$(java -XX:+UseSerialGC -cp "$CP" io.symbolicate.symbols.dotnet.PpdbLookupProbe \
    "$F/portable.pdb" "$ROUNDS" "$REPEAT" "$TMP/frames" | cut -d' ' -f1)")
  cecil+=("$(mono "$TMP/bench.exe" "$F/integration.dll" "$F/portable.pdb" "$ROUNDS" "$REPEAT" \
    "$TMP/frames" | cut -d' ' -f1)")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mo=$(median "${ours[@]}"); mc=$(median "${cecil[@]}")
echo "frames/s (load + lookups), $RUNS runs: ours ${ours[*]}; Cecil ${cecil[*]}"
echo "median: ours $mo, Cecil $mc, ratio $(awk -v a="$mo" -v b="$mc" 'BEGIN {printf "%.1f", a / b}')x"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
