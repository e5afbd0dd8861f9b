package io.symbolicate.api.status;

import java.util.List;
import java.util.Map;

/**
 * What the status page shows, as {@code /status.json} sends it (snake_case names). A section is
 * null when this instance does not run the part it describes (e.g. no stream in {@code serve}).
 */
public record StatusSnapshot(
    String generatedAt,
    Events events,
    DeadLetters deadLetters,
    Parked parked,
    Loads loads,
    MissingModules missingModules,
    List<Cache> caches,
    TopCrashers topCrashers) {

  /** Records read and written, in total and per second over the last few seconds. */
  public record Events(long inTotal, long outTotal, double inPerSecond, double outPerSecond) {}

  /** Dead letters in total and by reason (every reason listed, zeros included). */
  public record DeadLetters(long total, Map<String, Long> byReason) {}

  /** Events parked until their symbols are known, by platform. */
  public record Parked(long total, Map<String, Long> byPlatform) {}

  /** Symbol loads: running now (longest first) and the mean time of the finished ones. */
  public record Loads(int inFlight, long finished, double meanMillis, List<RunningLoad> running) {}

  public record RunningLoad(String module, long runningMillis) {}

  /** The most counted entries of {@code symbols.missing}; {@code note} says why there are none. */
  public record MissingModules(boolean enabled, String note, List<MissingModule> modules) {}

  public record MissingModule(
      String module, String platform, String scope, long count, String lastSeen) {}

  /** One cache layer; {@code hitRate} is null before the first lookup. */
  public record Cache(String layer, long hits, long misses, Double hitRate) {}

  /**
   * The top crashers of the last 24 hours from {@code GET /api/top-crashers}; {@code enabled}
   * false (with the reason in {@code note}) when that route is absent or failed; a note beside
   * the list says what is incomplete.
   */
  public record TopCrashers(
      boolean enabled,
      String note,
      String since,
      String until,
      long total,
      List<Crasher> crashers) {}

  /** One signature; {@code hours} holds its counts per hour, oldest first, the last hour last. */
  public record Crasher(
      String signature,
      long count,
      double share,
      String firstSeen,
      String lastSeen,
      String exampleEventId,
      List<Long> hours) {}
}
