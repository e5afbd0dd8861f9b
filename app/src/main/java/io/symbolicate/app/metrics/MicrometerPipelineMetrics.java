package io.symbolicate.app.metrics;

import io.micrometer.core.instrument.FunctionCounter;
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
import io.symbolicate.symbolication.store.CacheLayer;
import io.symbolicate.topology.metrics.PipelineMetrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@link PipelineMetrics} on Micrometer. Every platform × status series is registered up front,
 * so dashboards see zeros rather than gaps. The hot path only adds to {@link LongAdder}s it
 * already holds (no lookup by name or tags), which the registry reads at scrape time.
 */
public final class MicrometerPipelineMetrics implements PipelineMetrics {
  private static final Platform[] PLATFORMS = Platform.values();
  private static final FrameStatus[] FRAME_STATUSES = FrameStatus.values();
  private static final ModuleStatus[] MODULE_STATUSES = ModuleStatus.values();

  private final LongAdder eventsIn;
  private final LongAdder[] eventsOut = new LongAdder[PLATFORMS.length];
  private final LongAdder[] deadLettered = new LongAdder[ErrorKind.values().length];
  private final LongAdder[][] frames = new LongAdder[PLATFORMS.length][FRAME_STATUSES.length];
  private final LongAdder[][] modules = new LongAdder[PLATFORMS.length][MODULE_STATUSES.length];
  private final LongAdder[] lookups = new LongAdder[CacheLayer.values().length * 2];

  /** Parked events per (platform, owner); the gauge of a platform is the sum of its owners. */
  private final Map<Platform, Map<String, Long>> parked = new ConcurrentHashMap<>();

  private final MeterRegistry registry;

  public MicrometerPipelineMetrics(MeterRegistry registry) {
    this.registry = registry;
    eventsIn = counter("symbolicate.events.in", "raw records read from the input topic");
    for (ErrorKind k : ErrorKind.values()) {
      deadLettered[k.ordinal()] =
          counter(
              "symbolicate.events.dlq",
              "records written to the dead-letter topic, by reason",
              "reason",
              k.name());
    }
    for (Platform p : PLATFORMS) {
      String platform = Platforms.wireName(p);
      eventsOut[p.ordinal()] =
          counter(
              "symbolicate.events.out",
              "symbolicated events written to the output topic",
              "platform",
              platform);
      for (FrameStatus s : FRAME_STATUSES) {
        frames[p.ordinal()][s.ordinal()] =
            counter(
                "symbolicate.frames",
                "frames written to the output topic, by status",
                "platform",
                platform,
                "status",
                s.name());
      }
      for (ModuleStatus s : MODULE_STATUSES) {
        modules[p.ordinal()][s.ordinal()] =
            counter(
                "symbolicate.modules",
                "modules of output events, by status",
                "platform",
                platform,
                "status",
                s.name());
      }
      Map<String, Long> owners = new ConcurrentHashMap<>();
      parked.put(p, owners);
      Gauge.builder("symbolicate.events.parked", owners, MicrometerPipelineMetrics::sum)
          .tag("platform", platform)
          .description("events waiting for their symbols")
          .strongReference(true)
          .register(registry);
    }
    for (CacheLayer layer : CacheLayer.values()) {
      if (layer == CacheLayer.PAGE_CACHE) {
        continue; // Caffeine counts its own; AppMetrics exposes them under the same name
      }
      for (boolean hit : new boolean[] {true, false}) {
        lookups[slot(layer, hit)] =
            counter(
                AppMetrics.CACHE_LOOKUPS,
                AppMetrics.CACHE_LOOKUPS_DESCRIPTION,
                "layer",
                layer.tag(),
                "result",
                hit ? "hit" : "miss");
      }
    }
  }

  private LongAdder counter(String name, String description, String... tags) {
    LongAdder a = new LongAdder();
    FunctionCounter.builder(name, a, LongAdder::sum)
        .tags(tags)
        .description(description)
        .register(registry);
    return a;
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
        frames[p][s].add(byStatus[s]);
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
    LongAdder c = lookups[slot(layer, hit)];
    if (c != null) {
      c.increment();
    }
  }
}
