#!/usr/bin/env bash
# Conversion speed of this build against format 1's converter (commit 8e68182, which measured
# 228 MB/s on ceph-osd.sym), measured in the same run: RUNS alternating JMH forks of each build
# (old new, then new old, ...), then the medians and their ratio. The ratio is the figure; a
# shared machine's absolute ms/op moves with its neighbours (docs/minidump.md "Conversion speed").
# Usage: scripts/convert-vs-format1.sh [RUNS]   (default 5; run from anywhere)
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
cd "$ROOT"
RUNS=${1:-5}
FORMAT1=8e68182
SYM=$(readlink -f ../bench-data/native/ceph-osd.sym || true)
[ -f "$SYM" ] || { echo "missing ../bench-data/native/ceph-osd.sym: run ../shared/bench/native-sym.sh first" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'git worktree remove --force "$WORK/format1" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
git worktree add --detach "$WORK/format1" "$FORMAT1" >/dev/null
(cd "$WORK/format1" && mvn -q -pl benchmarks -am package -DskipTests)
mvn -q -pl benchmarks -am package -DskipTests
cp "$WORK/format1/benchmarks/target/benchmarks.jar" "$WORK/old.jar"
cp benchmarks/target/benchmarks.jar "$WORK/new.jar"
run() { # build -> ms/op of one fork (2 warm-up and 3 measured iterations)
  java -jar "$WORK/$1.jar" NativeConvertBench -f 1 -wi 2 -i 3 -w 3 -r 3 -p sym="$SYM" \
    | awk '/^NativeConvertBench.convert/ {print $(NF-3)}'
}
: > "$WORK/old.ms"
: > "$WORK/new.ms"
for i in $(seq 1 "$RUNS"); do
  order="old new"
  [ $((i % 2)) = 0 ] && order="new old"
  for b in $order; do
    ms=$(run "$b")
    echo "$ms" >> "$WORK/$b.ms"
    echo "run $i $b: $ms ms/op (load $(cut -d' ' -f1 /proc/loadavg))"
  done
done
median() { sort -g "$1" | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
old=$(median "$WORK/old.ms")
new=$(median "$WORK/new.ms")
bytes=$(stat -c %s "$SYM")
awk -v o="$old" -v n="$new" -v b="$bytes" -v r="$RUNS" 'BEGIN {
  printf "format 1 (%s): median %.1f ms/op = %.0f MB/s\n", "'"$FORMAT1"'", o, b / 1e3 / o
  printf "this build:      median %.1f ms/op = %.0f MB/s\n", n, b / 1e3 / n
  printf "ratio %.3f of format 1 time (%d runs each); at format 1'"'"'s 567.7 ms/op (228 MB/s) that is %.0f MB/s\n",
    n / o, r, b / 1e3 / (567.7 * n / o)
}'
