#!/usr/bin/env bash
# goldens.sh: Mono.Cecil's reading of the Portable PDBs of ../shared/fixtures/difs that come with
# their assembly, as the goldens of symbols' CecilSequencePointsTest (docs/dotnet.md).
# Needs Debian's mono-runtime, mono-mcs and libmono-cecil-private-cil (Mono.Cecil 0.11).
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd -P)
F=${SHARED:-$ROOT/../shared}/fixtures/difs/getsentry-symbolic/testutils
OUT=$ROOT/symbols/src/test/resources/io/symbolicate/symbols/dotnet/cecil
CECIL=$(ls -d /usr/lib/mono/gac/Mono.Cecil/0.11.*/Mono.Cecil.dll | head -1)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mcs -out:"$TMP/dump.exe" -r:"$CECIL" "$ROOT/scripts/cecil/CecilSequencePoints.cs"
mkdir -p "$OUT"
dump() { mono "$TMP/dump.exe" "$@"; }
dump "$F/windows/integration.dll" "$F/windows/portable.pdb" > "$OUT/portable.tsv"
# (Sentry.Samples.Console.Basic.dll and .pdb come from different builds: Cecil reads no points)
dump "$F/windows/Sentry.Samples.Console.Basic-embedded-ppdb.dll" > "$OUT/embedded-ppdb.tsv"
dump "$F/windows/Sentry.Samples.Console.Basic-embedded-ppdb-with-sources.dll" \
  > "$OUT/embedded-ppdb-with-sources.tsv"
dump "$F/ppdb-sourcelink-sample/ppdb-sourcelink-sample.dll" \
  "$F/ppdb-sourcelink-sample/ppdb-sourcelink-sample.pdb" > "$OUT/sourcelink-sample.tsv"
wc -l "$OUT"/*.tsv
