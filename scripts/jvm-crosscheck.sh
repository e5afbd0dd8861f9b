#!/usr/bin/env bash
# jvm-crosscheck.sh [MAPPING] [TRACES]
# jvm-crosscheck.sh --fixtures
#
# Retraces TRACES with R8's own retrace tool and with `./symbolicator jvm retrace`, and compares
# the two outputs byte for byte. R8 (com.android.tools:r8 from Maven Central) is used only here,
# never as a dependency of the build. With --fixtures, does the same for the input of every
# stacktrace case in ../shared/fixtures/jvm/cases.json (needs python3).
#
# Defaults: ../bench-data/jvm/mapping.txt and traces.txt relative to the repository root (made by
# ../shared/bench/jvm-mapping.sh). Env: R8_VERSION (default 9.5.28), WORK (default /tmp/jvm-crosscheck).
# Exit 0 when the outputs are identical, 1 when they differ (the first differences are printed).
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
MAPPING=${1:-$ROOT/../bench-data/jvm/mapping.txt}
TRACES=${2:-$ROOT/../bench-data/jvm/traces.txt}
R8_VERSION=${R8_VERSION:-9.5.28}
WORK=${WORK:-/tmp/jvm-crosscheck}
mkdir -p "$WORK"
JAR="$WORK/r8-$R8_VERSION.jar"

fetch_r8() {
  if [ ! -f "$JAR" ]; then
    echo "fetching com.android.tools:r8:$R8_VERSION from Maven Central" >&2
    (cd "$WORK" && mvn -q dependency:copy -Dartifact="com.android.tools:r8:$R8_VERSION" -DoutputDirectory="$WORK")
  fi
}

if [ "${1:-}" = "--fixtures" ]; then
  fetch_r8
  JAR="$JAR" ROOT="$ROOT" WORK="$WORK" python3 - <<'PY'
import json, os, subprocess, sys
root, jar, work = os.environ["ROOT"], os.environ["JAR"], os.environ["WORK"]
fx = os.path.join(root, "..", "shared", "fixtures", "jvm")
same, differ = 0, 0
for case in json.load(open(os.path.join(fx, "cases.json")))["cases"]:
    if case["kind"] != "stacktrace":
        continue
    trace = os.path.join(work, "fixture-input.txt")
    open(trace, "w").write(case["input"])
    mapping = os.path.join(fx, case["mapping"])
    r8 = subprocess.run(["java", "-cp", jar, "com.android.tools.r8.retrace.Retrace", mapping, trace],
                        capture_output=True, text=True).stdout
    ours = subprocess.run([os.path.join(root, "symbolicator"), "jvm", "retrace", "--mapping", mapping, trace],
                          capture_output=True, text=True).stdout
    if r8.rstrip("\n") == ours.rstrip("\n"):
        same += 1
    else:
        differ += 1
        print("DIFFERENT:", case["id"])
print(f"{same} fixture traces identical to R8, {differ} different")
sys.exit(1 if differ else 0)
PY
  exit $?
fi

[ -f "$MAPPING" ] || { echo "mapping not found: $MAPPING" >&2; exit 2; }
[ -f "$TRACES" ] || { echo "traces not found: $TRACES" >&2; exit 2; }

fetch_r8
java -cp "$JAR" com.android.tools.r8.retrace.Retrace --help | head -1 >&2

echo "R8 retrace:" >&2
start=$(date +%s.%N)
java -cp "$JAR" com.android.tools.r8.retrace.Retrace "$MAPPING" "$TRACES" > "$WORK/r8.txt"
echo "  $(echo "$(date +%s.%N) - $start" | bc) s" >&2

echo "symbolicator jvm retrace:" >&2
start=$(date +%s.%N)
"$ROOT/symbolicator" jvm retrace --mapping "$MAPPING" "$TRACES" > "$WORK/ours.txt"
echo "  $(echo "$(date +%s.%N) - $start" | bc) s" >&2

frames=$(grep -c '^[[:space:]]*at ' "$TRACES" || true)
if cmp -s "$WORK/r8.txt" "$WORK/ours.txt"; then
  echo "IDENTICAL: $frames input frames, $(wc -l < "$WORK/ours.txt") output lines ($WORK/r8.txt = $WORK/ours.txt)"
  exit 0
fi
echo "DIFFERENT: $(diff "$WORK/r8.txt" "$WORK/ours.txt" | grep -c '^[<>]') differing lines (< R8, > ours):"
diff "$WORK/r8.txt" "$WORK/ours.txt" | head -40
exit 1
