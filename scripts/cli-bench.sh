#!/usr/bin/env bash
# The command line's start-up and batch figures (docs/benchmarks.md, "Command line: start-up and
# batch"): whole processes, medians of N runs of wall and CPU (user+sys) seconds, each beside its
# anchor measured in the same run (java -version; Breakpad's minidump_stackwalk).
# Usage: scripts/cli-bench.sh [RUNS]   (default 5; needs ../bench-data/minidump from
# ../shared/bench/minidumps.sh, and a built ./symbolicator)
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
cd "$ROOT"
N=${1:-5}
D=${MINIDUMP_CORPUS:-$ROOT/../bench-data/minidump}
SW="$D/tools/minidump_stackwalk"
[ -x "$SW" ] || { echo "missing $SW: run ../shared/bench/minidumps.sh $D first" >&2; exit 1; }
export SYMBOLICATOR_SKIP_BUILD=1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# median of N runs of a command: "wall S cpu S"
med() {
  local w=() c=() e u s
  for _ in $(seq "$N"); do
    /usr/bin/time -f "%e %U %S" -o "$TMP/t" "$@" >/dev/null 2>&1
    read -r e u s < <(tail -1 "$TMP/t")
    w+=("$e"); c+=("$(echo "$u + $s" | bc)")
  done
  printf 'wall %s cpu %s' \
    "$(printf '%s\n' "${w[@]}" | sort -n | sed -n "$(( (N + 1) / 2 ))p")" \
    "$(printf '%s\n' "${c[@]}" | sort -n | sed -n "$(( (N + 1) / 2 ))p")"
}

# Breakpad once per dump, as a script over a folder does
stackwalk_each() {
  for f in "$@"; do "$SW" -m "$f" "$D/symbols" > "$TMP/sw/$(basename "${f%.dmp}").stackwalk.machine_readable.out" 2>/dev/null; done
}

export -f stackwalk_each
export SW D TMP
DUMPS=("$D"/*.dmp)
mkdir -p "$TMP/x20" "$TMP/sw"
for i in $(seq -w 1 20); do for f in "${DUMPS[@]}"; do ln -s "$f" "$TMP/x20/$i-$(basename "$f")"; done; done
ONE="$D/raise_segv.dmp"

./symbolicator --version >/dev/null   # the first run of a command writes its CDS archive
./symbolicator minidump walk "$ONE" --symbols "$D/symbols" -m >/dev/null

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD)"
echo "java -version                      $(med java -version)"
echo "./symbolicator --version           $(med ./symbolicator --version)"
echo "minidump_stackwalk -m (1 dump)     $(med "$SW" -m "$ONE" "$D/symbols")"
echo "minidump walk -m (1 dump)          $(med ./symbolicator minidump walk "$ONE" --symbols "$D/symbols" -m)"
echo "minidump_stackwalk -m x14          $(med bash -c 'stackwalk_each "$@"' _ "${DUMPS[@]}")"
echo "minidump walk -m (14 in one)       $(med ./symbolicator minidump walk "${DUMPS[@]}" --symbols "$D/symbols" -m --output-dir "$TMP/ours")"
echo "minidump_stackwalk -m x280         $(med bash -c 'stackwalk_each "$@"' _ "$TMP"/x20/*.dmp)"
echo "minidump walk -m (280 in one)      $(med ./symbolicator minidump walk "$TMP/x20" --symbols "$D/symbols" -m --output-dir "$TMP/ours20")"

# the batch's reports against Breakpad's, byte for byte
stackwalk_each "${DUMPS[@]}"
same=0
for f in "$TMP"/sw/*.out; do cmp -s "$f" "$TMP/ours/$(basename "$f")" && same=$((same + 1)); done
echo "byte-identical -m reports: $same of ${#DUMPS[@]}"
