package io.symbolicate.api;

/**
 * What serving one request cost, for Mozilla's {@code debug} block: module (cache) lookups and
 * hits, downloads triggered and their size and time, and the request's own time.
 */
public record RequestStats(
    long cacheLookups,
    long cacheHits,
    long downloads,
    long downloadBytes,
    long downloadMillis,
    int modules,
    int stacks,
    long durationMillis) {

  public static final RequestStats NONE = new RequestStats(0, 0, 0, 0, 0, 0, 0, 0);
}
