package io.symbolicate.topology;

/**
 * Typed configuration of the topology. The CLI builds it; the topology reads nothing else (no
 * environment, no files), so tests build the same topology from the same record.
 *
 * @param topics topic names
 * @param inputFormat encoding of raw events
 * @param maxEventBytes raw events larger than this go to the DLQ as {@code too_large}
 * @param maxFramesPerEvent events with more frames in total go to the DLQ as {@code too_large}
 */
public record TopologyConfig(
    TopicNames topics, InputFormat inputFormat, int maxEventBytes, int maxFramesPerEvent) {

  public static final int DEFAULT_MAX_EVENT_BYTES = 1 << 20;
  public static final int DEFAULT_MAX_FRAMES = 20_000;

  public static TopologyConfig defaults() {
    return new TopologyConfig(
        TopicNames.defaults(), InputFormat.AUTO, DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_FRAMES);
  }

  public TopologyConfig withTopics(TopicNames t) {
    return new TopologyConfig(t, inputFormat, maxEventBytes, maxFramesPerEvent);
  }

  public TopologyConfig withLimits(int maxBytes, int maxFrames) {
    return new TopologyConfig(topics, inputFormat, maxBytes, maxFrames);
  }
}
