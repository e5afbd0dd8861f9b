package io.symbolicate.topology.config;

import io.symbolicate.schema.topic.TopicNames;
import io.symbolicate.signatures.SignatureLists;
import java.time.Duration;
import java.util.Objects;

/**
 * Typed configuration of the topology. The CLI builds it; the topology reads nothing else (no
 * environment, no files), so tests build the same topology from the same record.
 *
 * @param topics topic names
 * @param inputFormat encoding of raw events
 * @param maxEventBytes raw events larger than this go to the DLQ as {@code too_large}
 * @param maxFramesPerEvent events with more frames in total go to the DLQ as {@code too_large}
 * @param parking how events wait for symbols
 * @param maxOutputBytes a symbolicated event larger than this once encoded goes to the DLQ as
 *     {@code too_large} instead of to the output topic (whose records the broker and the
 *     producer limit; see {@link io.symbolicate.schema.serde.OutputTooLargeException})
 * @param signatureLists the frame lists of crash signatures, already loaded (the caller reads
 *     the files: {@code signatures.lists.dir})
 */
public record TopologyConfig(
    TopicNames topics,
    InputFormat inputFormat,
    int maxEventBytes,
    int maxFramesPerEvent,
    Parking parking,
    int maxOutputBytes,
    SignatureLists signatureLists) {

  public TopologyConfig {
    Objects.requireNonNull(signatureLists, "signatureLists");
  }

  /** With the signature module's built-in lists. */
  public TopologyConfig(
      TopicNames topics,
      InputFormat inputFormat,
      int maxEventBytes,
      int maxFramesPerEvent,
      Parking parking,
      int maxOutputBytes) {
    this(
        topics,
        inputFormat,
        maxEventBytes,
        maxFramesPerEvent,
        parking,
        maxOutputBytes,
        SignatureLists.defaults());
  }

  public static final int DEFAULT_MAX_EVENT_BYTES = 1 << 20;
  public static final int DEFAULT_MAX_FRAMES = 20_000;

  /** The output limit for the producer's and the created output topic's default of 8 MB. */
  public static final int DEFAULT_MAX_OUTPUT_BYTES = outputLimit(8 << 20);

  /**
   * The largest symbolicated event for an output topic (and producer) that takes records of
   * {@code maxMessageBytes}: that less room for the batch around it (64 KB, or a sixteenth of a
   * smaller limit), and never more than the limit itself.
   */
  public static int outputLimit(int maxMessageBytes) {
    return maxMessageBytes - Math.min(64 << 10, maxMessageBytes / 16);
  }

  /**
   * @param timeout an event waits at most this long for its modules, then is emitted with honest statuses
   * @param checkInterval how often parked events are looked at (wall-clock punctuation)
   * @param maxParked more parked events than this (per task) are emitted at once instead of waiting
   * @param requestRetry a module still unknown is requested again after this
   * @param touchInterval found modules in use are reported to the loader at most this often
   * @param maxModules an event that needs more distinct modules than this goes to the DLQ as
   *     {@code too_large} instead of making a symbol request for each
   */
  public record Parking(
      Duration timeout,
      Duration checkInterval,
      int maxParked,
      Duration requestRetry,
      Duration touchInterval,
      int maxModules) {
    /** Real crashes reference tens of modules, a few hundred at most (every loaded library). */
    public static final int DEFAULT_MAX_MODULES = 1_000;

    public Parking(
        Duration timeout,
        Duration checkInterval,
        int maxParked,
        Duration requestRetry,
        Duration touchInterval) {
      this(timeout, checkInterval, maxParked, requestRetry, touchInterval, DEFAULT_MAX_MODULES);
    }

    public static Parking defaults() {
      return new Parking(
          Duration.ofSeconds(60),
          Duration.ofMillis(250),
          100_000,
          Duration.ofSeconds(5),
          Duration.ofHours(1));
    }

    public Parking withMaxModules(int max) {
      return new Parking(timeout, checkInterval, maxParked, requestRetry, touchInterval, max);
    }
  }

  public TopologyConfig(
      TopicNames topics, InputFormat inputFormat, int maxEventBytes, int maxFramesPerEvent) {
    this(
        topics,
        inputFormat,
        maxEventBytes,
        maxFramesPerEvent,
        Parking.defaults(),
        DEFAULT_MAX_OUTPUT_BYTES,
        SignatureLists.defaults());
  }

  public static TopologyConfig defaults() {
    return new TopologyConfig(
        TopicNames.defaults(), InputFormat.AUTO, DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_FRAMES);
  }

  public TopologyConfig withTopics(TopicNames t) {
    return new TopologyConfig(
        t, inputFormat, maxEventBytes, maxFramesPerEvent, parking, maxOutputBytes, signatureLists);
  }

  public TopologyConfig withLimits(int maxBytes, int maxFrames) {
    return new TopologyConfig(
        topics, inputFormat, maxBytes, maxFrames, parking, maxOutputBytes, signatureLists);
  }

  public TopologyConfig withParking(Parking p) {
    return new TopologyConfig(
        topics, inputFormat, maxEventBytes, maxFramesPerEvent, p, maxOutputBytes, signatureLists);
  }

  public TopologyConfig withMaxOutputBytes(int bytes) {
    return new TopologyConfig(
        topics, inputFormat, maxEventBytes, maxFramesPerEvent, parking, bytes, signatureLists);
  }

  public TopologyConfig withSignatureLists(SignatureLists lists) {
    return new TopologyConfig(
        topics, inputFormat, maxEventBytes, maxFramesPerEvent, parking, maxOutputBytes, lists);
  }
}
