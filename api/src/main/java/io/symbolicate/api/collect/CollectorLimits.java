package io.symbolicate.api.collect;

import java.time.Duration;

/**
 * The collector's limits (the CLI fills them from {@code collector.*} keys; docs/api/submit.md).
 *
 * @param maxBodyBytes the body as sent (compressed or not): larger gets 413
 * @param maxDecompressedBytes a gzip body once decompressed (gzip bombs): larger gets 413
 * @param maxDumpBytes one dump: larger gets 413
 * @param maxDumps file parts per report: more get 413
 * @param maxFields annotations per report (form fields, or entries of the {@code extra} JSON): more get 413
 * @param maxFieldBytes one annotation's value: larger gets 413
 * @param maxAnnotationBytes all annotations' names and values together: more get 413 (they travel in the event)
 * @param maxInFlight reports received at once; more get 503 with Retry-After
 * @param retryAfterSeconds the Retry-After of a 503
 * @param sendWait how long a request waits for the broker's acknowledgement of its event before it
 *     is answered anyway (the event is pending in the store and sent later)
 * @param resendAfter a pending event older than this is sent again by the sweeper
 * @param sweepInterval how often the sweeper looks for pending events
 */
public record CollectorLimits(
    long maxBodyBytes,
    long maxDecompressedBytes,
    long maxDumpBytes,
    int maxDumps,
    int maxFields,
    int maxFieldBytes,
    int maxAnnotationBytes,
    int maxInFlight,
    int retryAfterSeconds,
    Duration sendWait,
    Duration resendAfter,
    Duration sweepInterval) {

  public static final long DEFAULT_MAX_BODY_BYTES = 128L << 20;
  public static final long DEFAULT_MAX_DECOMPRESSED_BYTES = 256L << 20;
  public static final long DEFAULT_MAX_DUMP_BYTES = 128L << 20;
  public static final int DEFAULT_MAX_DUMPS = 8;
  public static final int DEFAULT_MAX_FIELDS = 1000;

  /** Firefox's largest annotation (its telemetry environment) is tens of KB. */
  public static final int DEFAULT_MAX_FIELD_BYTES = 256 << 10;

  /** Half the topology's default {@code max.event.bytes} (1 MiB): the event must pass it. */
  public static final int DEFAULT_MAX_ANNOTATION_BYTES = 512 << 10;

  public static final int DEFAULT_MAX_IN_FLIGHT = 16;
  public static final Duration DEFAULT_SEND_WAIT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_RESEND_AFTER = Duration.ofMinutes(5);
  public static final Duration DEFAULT_SWEEP_INTERVAL = Duration.ofMinutes(1);

  public CollectorLimits {
    if (maxBodyBytes < 1
        || maxDecompressedBytes < 1
        || maxDumpBytes < 1
        || maxDumps < 1
        || maxFields < 0
        || maxFieldBytes < 1
        || maxAnnotationBytes < 1
        || maxInFlight < 1
        || retryAfterSeconds < 0
        || sendWait.isNegative()
        || resendAfter.isNegative()
        || sweepInterval.isNegative()
        || sweepInterval.isZero()) {
      throw new IllegalArgumentException(
          "collector limits must be positive (collector.max.fields may be 0, "
              + "collector.send.wait.ms and collector.pending.resend.ms 0 or more)");
    }
  }

  public static CollectorLimits defaults() {
    return new CollectorLimits(
        DEFAULT_MAX_BODY_BYTES,
        DEFAULT_MAX_DECOMPRESSED_BYTES,
        DEFAULT_MAX_DUMP_BYTES,
        DEFAULT_MAX_DUMPS,
        DEFAULT_MAX_FIELDS,
        DEFAULT_MAX_FIELD_BYTES,
        DEFAULT_MAX_ANNOTATION_BYTES,
        DEFAULT_MAX_IN_FLIGHT,
        1,
        DEFAULT_SEND_WAIT,
        DEFAULT_RESEND_AFTER,
        DEFAULT_SWEEP_INTERVAL);
  }

  public CollectorLimits withSizes(long body, long decompressed, long dump) {
    return new CollectorLimits(
        body,
        decompressed,
        dump,
        maxDumps,
        maxFields,
        maxFieldBytes,
        maxAnnotationBytes,
        maxInFlight,
        retryAfterSeconds,
        sendWait,
        resendAfter,
        sweepInterval);
  }

  public CollectorLimits withCounts(int dumps, int fields, int fieldBytes, int annotationBytes) {
    return new CollectorLimits(
        maxBodyBytes,
        maxDecompressedBytes,
        maxDumpBytes,
        dumps,
        fields,
        fieldBytes,
        annotationBytes,
        maxInFlight,
        retryAfterSeconds,
        sendWait,
        resendAfter,
        sweepInterval);
  }

  public CollectorLimits withInFlight(int inFlight) {
    return new CollectorLimits(
        maxBodyBytes,
        maxDecompressedBytes,
        maxDumpBytes,
        maxDumps,
        maxFields,
        maxFieldBytes,
        maxAnnotationBytes,
        inFlight,
        retryAfterSeconds,
        sendWait,
        resendAfter,
        sweepInterval);
  }

  public CollectorLimits withTimes(Duration wait, Duration resend, Duration sweep) {
    return new CollectorLimits(
        maxBodyBytes,
        maxDecompressedBytes,
        maxDumpBytes,
        maxDumps,
        maxFields,
        maxFieldBytes,
        maxAnnotationBytes,
        maxInFlight,
        retryAfterSeconds,
        wait,
        resend,
        sweep);
  }
}
