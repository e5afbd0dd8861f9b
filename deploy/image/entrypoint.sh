#!/bin/sh
# The container's launcher: the JVM flags of ./symbolicator (JAVA_OPTS replaces the defaults, as
# there), on the image's classpath. A container exits on OutOfMemoryError so that it restarts.
set -eu
# Logging: logback with the app's logback.xml, to stderr. SYMBOLICATOR_LOG_FORMAT=json writes one
# JSON object a line for log collectors; SYMBOLICATOR_LOG_LEVEL, SYMBOLICATOR_KAFKA_LOG_LEVEL.
LOG_FORMAT="${SYMBOLICATOR_LOG_FORMAT:-text}"
case "$LOG_FORMAT" in
  text|json) ;;
  *) echo "entrypoint: SYMBOLICATOR_LOG_FORMAT must be text or json, not '$LOG_FORMAT'" >&2; exit 2 ;;
esac
DEFAULT_OPTS="-Xmx512m -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=75"
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-$DEFAULT_OPTS} -XX:+ExitOnOutOfMemoryError \
  -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.symbolicate.schema \
  -Dsymbolicator.log.format="$LOG_FORMAT" \
  -Dsymbolicator.log.level="${SYMBOLICATOR_LOG_LEVEL:-info}" \
  -Dsymbolicator.log.kafka.level="${SYMBOLICATOR_KAFKA_LOG_LEVEL:-warn}" \
  -cp "/opt/symbolicate/lib/*" io.symbolicate.app.cli.SymbolicatorCli "$@"
