package io.symbolicate.analytics;

import io.symbolicate.analytics.count.Retention;
import io.symbolicate.schema.topic.Topics;
import java.time.Duration;

/**
 * What the top-crashers aggregation needs to know.
 *
 * @param symbolicatedTopic the topic of symbolicated events it reads
 * @param retention crashes older than this (by crash time, against the wall clock) are not
 *     counted, and their counts are purged
 * @param purgeInterval how often the stores are purged of expired hours
 */
public record AnalyticsConfig(
    String symbolicatedTopic, Duration retention, Duration purgeInterval) {
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(30);
  public static final Duration DEFAULT_PURGE_INTERVAL = Duration.ofMinutes(1);

  public AnalyticsConfig {
    if (symbolicatedTopic == null || symbolicatedTopic.isBlank()) {
      throw new IllegalArgumentException("the symbolicated topic must be named");
    }
    if (retention.compareTo(Duration.ofHours(1)) < 0) {
      throw new IllegalArgumentException(
          "the retention must be at least one hour, not " + retention);
    }
    if (purgeInterval.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "the purge interval must be at least a second, not " + purgeInterval);
    }
  }

  public static AnalyticsConfig defaults() {
    return new AnalyticsConfig(
        Topics.SYMBOLICATED.defaultName(), DEFAULT_RETENTION, DEFAULT_PURGE_INTERVAL);
  }

  /** The retention and purge interval, as the processors take them. */
  public Retention window() {
    return new Retention(retention, purgeInterval);
  }
}
