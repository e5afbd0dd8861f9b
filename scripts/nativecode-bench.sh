#!/usr/bin/env bash
# Reproduces the native engine's figures (docs/native.md) on ../bench-data/native (ceph-osd).
# Usage: scripts/nativecode-bench.sh [FORKS]   (default 5; run from anywhere)
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
cd "$ROOT"
F=${1:-5}
SYM=../bench-data/native/ceph-osd.sym
[ -f "$SYM" ] || { echo "missing $SYM: run ../shared/bench/native-sym.sh first" >&2; exit 1; }
mvn -q -pl symbols,benchmarks -am package -DskipTests
JAR=benchmarks/target/benchmarks.jar
echo "== peak heap of a streaming conversion under -Xmx256m"
java -Xmx256m -cp "$JAR" io.symbolicate.bench.nativecode.NativeHeapProbe "$SYM"
echo "== lookups/s (1M random addresses, warm pages, one thread)"
java -jar "$JAR" NativeLookupBench -f "$F" -wi 3 -i 3 -w 2 -r 2
echo "== conversion (ms per 129.6 MB .sym, one thread; table size printed at setup)"
java -jar "$JAR" NativeConvertBench -f "$F" -wi 2 -i 3 -w 3 -r 3
