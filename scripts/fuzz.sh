#!/usr/bin/env bash
# fuzz.sh TARGET SECONDS
# fuzz.sh --list
#
# Runs one fuzz target coverage-guided for SECONDS with Jazzer's standalone driver (libFuzzer
# flags in full: per-input timeout, final stats), on the module's test classpath. One at a time:
# a run takes a core. TARGET is a short name from --list, or Class#method of any @FuzzTest
# (MODULE=<maven module> when it is not in symbols; a short name carries its module as module:). Each distinct failing input is written as
# crash-<sha1> into the target's inputs directory under src/test/resources, where every build
# replays it (the run goes on after a finding, up to KEEP_GOING of them); the corpus the run
# grows stays in <module>/.cifuzz-corpus (not committed). The log goes to
# <module>/target/fuzz/TARGET.log; its last lines (execs/s, findings) are printed.
# Env: FUZZ_HEAP (default 1g), MODULE (default symbols), KEEP_GOING (default 20),
# TIMEOUT (seconds per input, default 10), FUZZ_NO_BUILD (set: reuse the module's last build, for a
# series of runs; without a build there, it builds). Exit status: 0 no finding, 1 finding. See docs/fuzzing.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)

declare -A TARGETS=(
  [native-sym]=io.symbolicate.symbols.nativecode.NativeFuzzTests#symFile
  [native-table]=io.symbolicate.symbols.nativecode.NativeFuzzTests#tableBytes
  [js-sourcemap]=io.symbolicate.symbols.js.JsFuzzTests#sourceMap
  [js-mappings]=io.symbolicate.symbols.js.JsFuzzTests#mappings
  [js-minified]=io.symbolicate.symbols.js.JsFuzzTests#minifiedScopes
  [js-table]=io.symbolicate.symbols.js.JsFuzzTests#tableBytes
  [jvm-mapping]=io.symbolicate.symbols.jvm.JvmFuzzTests#mapping
  [jvm-stacktrace]=io.symbolicate.symbols.jvm.JvmFuzzTests#stackTrace
  [jvm-table]=io.symbolicate.symbols.jvm.JvmFuzzTests#tableBytes
  [minidump]=io.symbolicate.symbols.minidump.MinidumpFuzzTests#dump
  [symbfile]=io.symbolicate.symbols.symbfile.SymbfileFuzzTests#symbfile
  [demangle-itanium]=io.symbolicate.symbols.demangle.DemangleFuzzTests#itanium
  [demangle-rust]=io.symbolicate.symbols.demangle.DemangleFuzzTests#rust
  [demangle-msvc]=io.symbolicate.symbols.demangle.DemangleFuzzTests#msvc
  [apple-report]=io.symbolicate.symbols.apple.AppleFuzzTests#report
  [cfi-eh-frame]=io.symbolicate.symbols.cfi.CfiFuzzTests#ehFrame
  [cfi-compact]=io.symbolicate.symbols.cfi.CfiFuzzTests#compactUnwind
  [pe-unwind]=io.symbolicate.symbols.cfi.CfiFuzzTests#peUnwind
  [dwarf]=io.symbolicate.symbols.dwarf.DwarfFuzzTests#debugInfo
  [dwarf-dwp]=io.symbolicate.symbols.dwarf.DwarfFuzzTests#dwp
  [objects-elf]=io.symbolicate.symbols.objects.ObjectFuzzTests#elf
  [objects-macho]=io.symbolicate.symbols.objects.ObjectFuzzTests#macho
  [pe]=io.symbolicate.symbols.objects.ObjectFuzzTests#pe
  [cab]=io.symbolicate.symbols.io.CabFuzzTests#cab
  [source-bundle]=io.symbolicate.symbols.sources.SourcesFuzzTests#sourceBundle
  [portable-pdb]=io.symbolicate.symbols.dotnet.DotnetFuzzTests#portablePdb
  [ppdb-sequence-points]=io.symbolicate.symbols.dotnet.DotnetFuzzTests#sequencePoints
  [ppdb-table]=io.symbolicate.symbols.dotnet.DotnetFuzzTests#tableBytes
  [pdb]=io.symbolicate.symbols.pdb.PdbFuzzTests#pdb
  [event]=topology:io.symbolicate.topology.decode.EventFuzzTests#event
  [api-request]=api:io.symbolicate.api.ApiRequestFuzzTests#request
  [api-upload]=api:io.symbolicate.api.upload.UploadFuzzTests#upload
  [loader-debug-file]=connectors:io.symbolicate.connectors.loader.nativecode.DebugFileFuzzTests#debugFile
  [source-link-url]=connectors:io.symbolicate.connectors.source.SourceLinkFuzzTests#url
  [signature]=signatures:io.symbolicate.signatures.SignatureFuzzTests#crashData
)

if [ "${1:-}" = "--list" ]; then
  for t in $(printf '%s\n' "${!TARGETS[@]}" | sort); do printf '%-16s %s\n' "$t" "${TARGETS[$t]}"; done
  exit 0
fi
if [ $# -ne 2 ]; then
  echo "usage: $0 TARGET SECONDS   (targets: $0 --list)" >&2
  exit 2
fi
NAME=$1
DURATION=$2
TEST=${TARGETS[$NAME]:-$NAME}
case "$TEST" in *#*) ;; *) echo "unknown target $NAME (see $0 --list)" >&2; exit 2 ;; esac
case "$TEST" in *:*) MODULE=${TEST%%:*}; TEST=${TEST#*:} ;; esac
CLASS=${TEST%%#*}
METHOD=${TEST##*#}
MODULE=${MODULE:-symbols}
HEAP=${FUZZ_HEAP:-1g}
KEEP_GOING=${KEEP_GOING:-20}
TIMEOUT=${TIMEOUT:-10}
SHARED=${SHARED:-$ROOT/../shared}
M="$ROOT/$MODULE"
INPUTS="$M/src/test/resources/$(echo "${CLASS%.*}" | tr . /)/${CLASS##*.}Inputs/$METHOD"
CORPUS="$M/.cifuzz-corpus/$CLASS/$METHOD"
LOG="$M/target/fuzz/$NAME.log"
LOG=${LOG//#/_}
mkdir -p "$INPUTS" "$CORPUS" "$M/target/fuzz"

cd "$ROOT"
if [ -z "${FUZZ_NO_BUILD:-}" ] || [ ! -f "$M/target/fuzz-classpath.txt" ]; then
  mvn -q -o -pl "$MODULE" -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/fuzz-classpath.txt -Dmdep.includeScope=test
fi
CP="$M/target/test-classes:$M/target/classes:$(cat "$M/target/fuzz-classpath.txt")"

echo "fuzzing $TEST for ${DURATION}s; log: $LOG" >&2
set +e
(cd "$M" && java "-Xmx$HEAP" -XX:+UseParallelGC -Dshared.dir="$SHARED" -cp "$CP" \
  com.code_intelligence.jazzer.Jazzer --target_class="$CLASS" --target_method="$METHOD" \
  '--instrumentation_includes=io.symbolicate.**' --keep_going="$KEEP_GOING" \
  -max_total_time="$DURATION" -timeout="$TIMEOUT" -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$INPUTS/" "$CORPUS" "$INPUTS") >"$LOG" 2>&1
STATUS=$?
set -e
grep -aE '^#[0-9]+ +DONE|^Done [0-9]+ runs|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$LOG" >&2 || true
if [ $STATUS -ne 0 ] || grep -aq '^== Java Exception' "$LOG"; then
  grep -aE '^== Java Exception|^Test unit written to|^artifact_prefix|^INFO: To reproduce' "$LOG" | head -40 >&2 || true
  echo "finding(s) (exit $STATUS): see $LOG" >&2
  exit 1
fi
echo "no finding" >&2
