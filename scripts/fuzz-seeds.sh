#!/usr/bin/env bash
# fuzz-seeds.sh
#
# Regenerates the fuzz targets' seed corpora (the seed-* files under
# symbols/src/test/resources/**/*FuzzTestsInputs/) from the peer fixtures in ../shared: small cuts
# of real files and tables our converters make from them (see FuzzSeeds). Findings (crash-*)
# beside them are kept. Run after changing a table format, then commit the changed seeds.
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd -P)
SHARED=${SHARED:-$ROOT/../shared}
cd "$ROOT"
mvn -q -o -pl symbols -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/fuzz-classpath.txt -Dmdep.includeScope=test
CP="symbols/target/test-classes:symbols/target/classes:$(cat symbols/target/fuzz-classpath.txt)"
java -cp "$CP" io.symbolicate.symbols.testing.FuzzSeeds "$SHARED" symbols/src/test/resources
