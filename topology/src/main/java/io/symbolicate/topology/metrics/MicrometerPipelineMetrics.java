package io.symbolicate.topology.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.Platforms;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link PipelineMetrics} on Micrometer. Every platform × status series is registered up front,
 * so dashboards see zeros rather than gaps, and the hot path only increments counters it
 * already holds.
 */
public final class MicrometerPipelineMetrics implements PipelineMetrics {
  private static final Platform[] PLATFORMS = Platform.values();
  private static final FrameStatus[] FRAME_STATUSES = FrameStatus.values();
  private static final ModuleStatus[] MODULE_STATUSES = ModuleStatus.values();

  private final Counter eventsIn;
  private final Counter[] eventsOut = new Counter[PLATFORMS.length];
  private final Counter[] deadLettered = new Counter[ErrorKind.values().length];
  private final Counter[][] frames = new Counter[PLATFORMS.length][FRAME_STATUSES.length];
  private final Counter[][] modules = new Counter[PLATFORMS.length][MODULE_STATUSES.length];
  private final Counter[] lookups = new Counter[CacheLayer.values().length * 2];
  /** Parked events per (platform, owner); the gauge of a platform is the sum of its owners. */
  private final Map<Platform, Map<String, Long>> parked = new ConcurrentHashMap<>();

  public MicrometerPipelineMetrics(MeterRegistry registry) {
    eventsIn = Counter.builder("symbolicate.events.in")
        .description("raw records read from the input topic").register(registry);
    for (ErrorKind k : ErrorKind.values()) {
      deadLettered[k.ordinal()] = Counter.builder("symbolicate.events.dlq").tag("reason", k.name())
          .description("records written to the dead-letter topic, by reason").register(registry);
    }
    for (Platform p : PLATFORMS) {
      String platform = Platforms.wireName(p);
      eventsOut[p.ordinal()] = Counter.builder("symbolicate.events.out").tag("platform", platform)
          .description("symbolicated events written to the output topic").register(registry);
      for (FrameStatus s : FRAME_STATUSES) {
        frames[p.ordinal()][s.ordinal()] = Counter.builder("symbolicate.frames")
            .tags("platform", platform, "status", s.name())
            .description("frames written to the output topic, by status").register(registry);
      }
      for (ModuleStatus s : MODULE_STATUSES) {
        modules[p.ordinal()][s.ordinal()] = Counter.builder("symbolicate.modules")
            .tags("platform", platform, "status", s.name())
            .description("modules of output events, by status").register(registry);
      }
      Map<String, Long> owners = new ConcurrentHashMap<>();
      parked.put(p, owners);
      Gauge.builder("symbolicate.events.parked", owners, MicrometerPipelineMetrics::sum)
          .tag("platform", platform).description("events waiting for their symbols")
          .strongReference(true).register(registry);
    }
    for (CacheLayer layer : CacheLayer.values()) {
      if (layer == CacheLayer.PAGE_CACHE) {
        continue; // Caffeine counts its own; AppMetrics exposes them under the same name
      }
      for (boolean hit : new boolean[] {true, false}) {
        lookups[slot(layer, hit)] = Counter.builder(AppMetrics.CACHE_LOOKUPS)
            .tags("layer", layer.tag(), "result", hit ? "hit" : "miss")
            .description(AppMetrics.CACHE_LOOKUPS_DESCRIPTION).register(registry);
      }
    }
  }

  private static int slot(CacheLayer layer, boolean hit) {
    return layer.ordinal() * 2 + (hit ? 0 : 1);
  }

  private static double sum(Map<String, Long> owners) {
    long n = 0;
    for (long v : owners.values()) {
      n += v;
    }
    return n;
  }

  @Override
  public void eventIn() {
    eventsIn.increment();
  }

  @Override
  public void deadLettered(ErrorKind reason) {
    deadLettered[reason.ordinal()].increment();
  }

  @Override
  public void symbolicated(Platform platform, SymbolicatedEvent out) {
    int p = platform.ordinal();
    eventsOut[p].increment();
    // tally locally first: one counter update per status rather than per frame
    int[] byStatus = new int[FRAME_STATUSES.length];
    for (SymbolicatedStack stack : out.getStacks()) {
      for (SymbolicatedFrame f : stack.getFrames()) {
        byStatus[f.getStatus().ordinal()]++;
      }
    }
    for (int s = 0; s < byStatus.length; s++) {
      if (byStatus[s] > 0) {
        frames[p][s].increment(byStatus[s]);
      }
    }
    for (ModuleResult m : out.getModules()) {
      modules[p][m.getStatus().ordinal()].increment();
    }
  }

  @Override
  public void parked(String owner, Platform platform, long count) {
    Map<String, Long> owners = parked.get(platform);
    if (count <= 0) {
      owners.remove(owner);
    } else {
      owners.put(owner, count);
    }
  }

  @Override
  public void cacheLookup(CacheLayer layer, boolean hit) {
    Counter c = lookups[slot(layer, hit)];
    if (c != null) {
      c.increment();
    }
  }
}
