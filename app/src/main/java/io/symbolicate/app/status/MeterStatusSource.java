package io.symbolicate.app.status;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.symbolicate.api.status.StatusSnapshot;
import io.symbolicate.api.status.StatusSource;
import io.symbolicate.api.status.TopCrashersClient;
import io.symbolicate.connectors.loader.SymbolLoader;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The status page's numbers: the same meters {@code /metrics} serves (so the two always agree),
 * the loader's running loads, the missing-modules tracker and the top-crashers routes. A part this
 * instance does not run (no stream in {@code serve}, no embedded loader) is left out.
 */
public final class MeterStatusSource implements StatusSource, AutoCloseable {
  static final String EVENTS_IN = "symbolicate.events.in";
  static final String EVENTS_OUT = "symbolicate.events.out";
  static final String DEAD_LETTERS = "symbolicate.events.dlq";
  static final String PARKED = "symbolicate.events.parked";
  static final String CACHE_LOOKUPS = "symbolicate.cache.lookups";

  /** Running loads listed at most, longest first. */
  static final int RUNNING_SHOWN = 10;

  private final MeterRegistry registry;
  private final boolean stream;
  private final SymbolLoader.Stats loads;
  private final MissingModulesTracker missing;
  private final TopCrashersClient topCrashers;
  private final EventRates rates;
  private final ScheduledExecutorService ticker;

  /**
   * {@code stream}: the streams app runs in this process (the pipeline's meters exist in every
   * registry, as zeros without it); {@code loads} and {@code missing} may be null (not run here).
   */
  public MeterStatusSource(
      MeterRegistry registry,
      boolean stream,
      SymbolLoader.Stats loads,
      MissingModulesTracker missing,
      TopCrashersClient topCrashers) {
    this.registry = registry;
    this.stream = stream;
    this.loads = loads;
    this.missing = missing;
    this.topCrashers = topCrashers;
    this.rates =
        new EventRates(() -> (long) sum(EVENTS_IN), () -> (long) sum(EVENTS_OUT), System::nanoTime);
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "status-rates");
              t.setDaemon(true);
              return t;
            });
    ticker.scheduleAtFixedRate(
        rates::sample, EventRates.TICK_MILLIS, EventRates.TICK_MILLIS, TimeUnit.MILLISECONDS);
  }

  @Override
  public StatusSnapshot snapshot() {
    StatusSnapshot.Events events = null;
    StatusSnapshot.DeadLetters dead = null;
    StatusSnapshot.Parked parked = null;
    if (stream) {
      EventRates.Rates r = rates.sample();
      events = new StatusSnapshot.Events(r.in(), r.out(), r.inPerSecond(), r.outPerSecond());
      Map<String, Long> reasons = byTag(DEAD_LETTERS, "reason");
      dead = new StatusSnapshot.DeadLetters(total(reasons), reasons);
      Map<String, Long> platforms = byTag(PARKED, "platform");
      parked = new StatusSnapshot.Parked(total(platforms), platforms);
    }
    return new StatusSnapshot(
        Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
        events,
        dead,
        parked,
        loads(),
        missing == null ? null : missing.top(),
        caches(),
        topCrashers.topCrashers());
  }

  private StatusSnapshot.Loads loads() {
    if (loads == null) {
      return null;
    }
    long now = System.currentTimeMillis();
    List<StatusSnapshot.RunningLoad> running = new ArrayList<>();
    for (SymbolLoader.Stats.RunningLoad r : loads.running.values()) {
      running.add(
          new StatusSnapshot.RunningLoad(r.module(), Math.max(0, now - r.startedAtMillis())));
    }
    running.sort(Comparator.comparingLong(StatusSnapshot.RunningLoad::runningMillis).reversed());
    long timed = loads.loadsTimed.get();
    return new StatusSnapshot.Loads(
        running.size(),
        timed,
        timed == 0 ? 0 : (double) loads.loadWallMillis.get() / timed,
        running.subList(0, Math.min(RUNNING_SHOWN, running.size())));
  }

  private List<StatusSnapshot.Cache> caches() {
    Map<String, long[]> byLayer = new TreeMap<>();
    for (Meter m : registry.find(CACHE_LOOKUPS).meters()) {
      String layer = m.getId().getTag("layer");
      long[] hm = byLayer.computeIfAbsent(layer == null ? "?" : layer, k -> new long[2]);
      hm["hit".equals(m.getId().getTag("result")) ? 0 : 1] += (long) value(m);
    }
    List<StatusSnapshot.Cache> out = new ArrayList<>();
    byLayer.forEach(
        (layer, hm) ->
            out.add(
                new StatusSnapshot.Cache(
                    layer,
                    hm[0],
                    hm[1],
                    hm[0] + hm[1] == 0 ? null : (double) hm[0] / (hm[0] + hm[1]))));
    return out;
  }

  private Map<String, Long> byTag(String name, String tag) {
    Map<String, Long> out = new TreeMap<>();
    for (Meter m : registry.find(name).meters()) {
      out.merge(String.valueOf(m.getId().getTag(tag)), (long) value(m), Long::sum);
    }
    return out;
  }

  private double sum(String name) {
    double s = 0;
    for (Meter m : registry.find(name).meters()) {
      s += value(m);
    }
    return s;
  }

  /** A counter's count or a gauge's value (the first measurement of either). */
  private static double value(Meter m) {
    var it = m.measure().iterator();
    double v = it.hasNext() ? it.next().getValue() : 0;
    return Double.isFinite(v) ? v : 0;
  }

  private static long total(Map<String, Long> counts) {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    if (missing != null) {
      missing.close();
    }
  }
}
