#!/bin/sh
# The container's launcher: the JVM flags of ./symbolicator (JAVA_OPTS replaces the defaults, as
# there), on the image's classpath. A container exits on OutOfMemoryError so that it restarts.
set -eu
DEFAULT_OPTS="-Xmx512m -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=75"
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-$DEFAULT_OPTS} -XX:+ExitOnOutOfMemoryError \
  -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.symbolicate.schema \
  -Dorg.slf4j.simpleLogger.defaultLogLevel="${SYMBOLICATOR_LOG_LEVEL:-info}" \
  -Dorg.slf4j.simpleLogger.logFile=System.err \
  -Dorg.slf4j.simpleLogger.log.org.apache.kafka="${SYMBOLICATOR_KAFKA_LOG_LEVEL:-warn}" \
  -cp "/opt/symbolicate/lib/*" io.symbolicate.app.cli.SymbolicatorCli "$@"
