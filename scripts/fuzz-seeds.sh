#!/usr/bin/env bash
# fuzz-seeds.sh
#
# Regenerates the fuzz targets' seed corpora (the seed-* files under
# <module>/src/test/resources/**/*FuzzTestsInputs/) of the symbols, topology and api modules:
# small cuts of the peer fixtures in ../shared and tables our converters make from them (see
# FuzzSeeds), the sample events as Avro and JSON (EventFuzzSeeds), requests of each API shape and
# the symbols seeds as uploads (ApiFuzzSeeds). Findings (crash-*, regression-*) beside them are
# kept. Run after changing a table format or a schema, then commit the changed seeds.
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
SHARED=${SHARED:-$ROOT/../shared}
cd "$ROOT"
mvn -q -o -pl symbols,topology,api -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/fuzz-classpath.txt -Dmdep.includeScope=test
cp_of() { echo "$1/target/test-classes:$1/target/classes:$(cat "$1/target/fuzz-classpath.txt")"; }
java -cp "$(cp_of symbols)" io.symbolicate.symbols.testing.FuzzSeeds "$SHARED" symbols/src/test/resources
java -Dshared.dir="$SHARED" -cp "$(cp_of symbols)" io.symbolicate.symbols.objects.ObjectFuzzSeeds symbols/src/test/resources
java -Dshared.dir="$SHARED" -cp "$(cp_of symbols)" io.symbolicate.symbols.dotnet.DotnetFuzzSeeds symbols/src/test/resources
java -cp "$(cp_of topology)" io.symbolicate.topology.decode.EventFuzzSeeds topology/src/test/resources
java -cp "$(cp_of api)" io.symbolicate.api.upload.ApiFuzzSeeds symbols/src/test/resources api/src/test/resources
