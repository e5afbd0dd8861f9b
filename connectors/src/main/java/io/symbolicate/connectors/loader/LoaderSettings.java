package io.symbolicate.connectors.loader;

import java.time.Duration;

/**
 * Loader behaviour and Symbolicator-style caching rules (defaults as Symbolicator's).
 *
 * @param concurrency downloads and conversions at once
 * @param attempts tries per fetch before the failure is reported (transient failures only)
 * @param backoff first retry delay, doubled per attempt
 * @param missingRetry a module missing from every source is asked for again after this
 * @param malformedRetry a malformed file is tried again after this (or after a restart or a
 *     format-version change)
 * @param failedRetry after a transient failure, the module may be requested again after this
 * @param unusedTtl tables unused for this long are removed (tombstones)
 * @param maxInputBytes cap on a debug file's decompressed size
 * @param coalesceWindow a duplicate request within this window of a finished load is ignored
 * @param cpuBudget share of one core each load may use (conversion and publishing) while the
 *     process keeps the cores busy, and while cores are free ({@link CpuBudget}); the loader
 *     sleeps in proportion to the CPU it used, so stream threads keep theirs
 * @param warmup convert a synthetic file per engine at start ({@link ConverterWarmup}), so the
 *     first real file does not pay for the JIT while events flow
 */
public record LoaderSettings(
    int concurrency,
    int attempts,
    Duration backoff,
    Duration missingRetry,
    Duration malformedRetry,
    Duration failedRetry,
    Duration unusedTtl,
    long maxInputBytes,
    Duration coalesceWindow,
    CpuBudget cpuBudget,
    boolean warmup) {

  /** Default of {@code loader.cpu.share}: the share while the cores are busy. */
  public static final double DEFAULT_CPU_SHARE = 0.1;

  /** Default of {@code loader.cpu.share.idle}: unpaced while cores are idle. */
  public static final double DEFAULT_CPU_SHARE_IDLE = 1.0;

  public static LoaderSettings defaults() {
    return new LoaderSettings(
        4,
        4,
        Duration.ofMillis(500),
        Duration.ofHours(1),
        Duration.ofHours(24),
        Duration.ofSeconds(30),
        Duration.ofDays(7),
        4L << 30,
        Duration.ofSeconds(10),
        new CpuBudget(DEFAULT_CPU_SHARE, DEFAULT_CPU_SHARE_IDLE),
        true);
  }
}
