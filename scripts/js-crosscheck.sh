#!/usr/bin/env bash
# Cross-checks our sourcemap lookups against Mozilla source-map on the benchmark inputs:
# every line of <name>.lookups.tsv (1M each) must give the same source, line, column and name.
# usage: scripts/js-crosscheck.sh [BENCH_JS_DIR (default ../bench-data/js)] [SOURCE_MAP_VERSION]
# Installs source-map from npm into a temporary folder (removed afterwards).
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
DATA=$(cd "${1:-$ROOT/../bench-data/js}" && pwd -P)
VERSION=${2:-0.8.0}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "installing source-map@$VERSION into $TMP ..." >&2
npm install --prefix "$TMP" --no-audit --no-fund --silent "source-map@$VERSION" >&2
status=0
for name in typescript three; do
  map="$DATA/$name.min.js.map"
  tsv="$DATA/$name.lookups.tsv"
  [ -f "$map" ] && [ -f "$tsv" ] || { echo "missing $map or $tsv (run ../shared/bench/js-maps.sh)" >&2; exit 2; }
  "$ROOT/symbolicator" js batch --map "$map" --lookups "$tsv" --out "$TMP/$name.ours.tsv"
  node "$ROOT/scripts/js-crosscheck.mjs" "$TMP/node_modules/source-map" "$map" "$tsv" "$TMP/$name.ours.tsv" || status=1
done
[ $status = 0 ] && echo "cross-check: all results equal to Mozilla source-map@$VERSION" || echo "cross-check: DIFFERENCES found" >&2
exit $status
