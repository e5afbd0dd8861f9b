package io.symbolicate.api;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
import io.symbolicate.symbolication.store.ModuleReadiness;
import io.symbolicate.symbolication.store.ScopeFirst;
import io.symbolicate.symbolication.store.StoreMetrics;
import io.symbolicate.symbolication.store.StoreSymbolLookup;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbolication.store.SymbolStore;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.table.ModuleRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * What every API endpoint does between its request and response shapes, with the stream's own
 * platform steps and caching rules: collect the modules the events need (each once per request),
 * ask for those not loaded yet and wait for them up to the request's deadline, then symbolicate
 * every event. A module still unknown at the deadline is answered as not found; nothing hangs.
 */
public final class ApiSymbolicator {
  /** How often a waiting request looks at the store again. */
  private static final long POLL_MS = 10;

  /** How long a request's stats may wait for loads it saw finish to record their downloads. */
  private static final long STATS_WAIT_MS = 500;

  private final Map<Platform, PlatformSymbolicator> steps;
  private final ApiSymbols symbols;
  private final Map<Platform, ModuleReadiness> readiness = new EnumMap<>(Platform.class);

  public ApiSymbolicator(Map<Platform, PlatformSymbolicator> steps, ApiSymbols symbols) {
    this.steps = Map.copyOf(steps);
    this.symbols = symbols;
    long startedAt = System.currentTimeMillis();
    steps.forEach((p, s) -> readiness.put(p, s.readiness(startedAt)));
  }

  /** The outcome of one request: results in the order of the events, the lookup used, the cost. */
  public record Result(List<SymbolicatedEvent> events, SymbolLookup lookup, RequestStats stats) {}

  /**
   * Symbolicates the events, waiting for unloaded modules until {@code deadlineMillis}
   * (epoch milliseconds). More than {@code maxModules} distinct modules is a 413, before any is
   * requested.
   */
  public Result symbolicate(List<CrashEvent> events, long deadlineMillis, int maxModules)
      throws InterruptedException {
    return symbolicate(events, Map.of(), deadlineMillis, maxModules, (e, l) -> e);
  }

  /**
   * As {@link #symbolicate(List, long, int)}, also waiting for {@code ownModules}, tables the
   * caller reads itself with the lookup (with their caching rules); once the modules are ready (or the deadline has
   * passed), {@code ready} may rewrite the events from what the tables say before their frames
   * are symbolicated (e.g. the CPU of the modules found, which decides how return addresses are
   * adjusted). It must keep their order, platforms and modules.
   */
  public Result symbolicate(
      List<CrashEvent> events,
      Map<ModuleRef, ModuleReadiness> ownModules,
      long deadlineMillis,
      int maxModules,
      BiFunction<List<CrashEvent>, SymbolLookup, List<CrashEvent>> ready)
      throws InterruptedException {
    long started = System.nanoTime();
    SymbolStore store =
        new SymbolStore(
            symbols.tables(), symbols.pageCache(), System::currentTimeMillis, StoreMetrics.NONE);
    SymbolLookup lookup = new StoreSymbolLookup(store);

    // every module of every event, once per request
    Map<ModuleRef, ModuleReadiness> needed = new LinkedHashMap<>();
    for (CrashEvent e : events) {
      PlatformSymbolicator step = step(e);
      for (ModuleRef ref : step.modulesNeeded(e)) {
        needed.putIfAbsent(ref, readiness.get(step.platform()));
      }
    }
    ownModules.forEach(needed::putIfAbsent);
    if (needed.size() > maxModules) {
      throw ApiException.tooLarge(
          "request needs " + needed.size() + " modules; the limit is " + maxModules);
    }

    long lookups = needed.size();
    Set<ModuleRef> waitedFor = new LinkedHashSet<>();
    Map<ModuleRef, ModuleReadiness> pending = new LinkedHashMap<>(needed);
    long hits = awaitReady(store, pending, waitedFor, deadlineMillis);

    events = ready.apply(events, lookup);
    long now = System.currentTimeMillis();
    List<SymbolicatedEvent> out = new ArrayList<>(events.size());
    for (CrashEvent e : events) {
      out.add(step(e).symbolicate(e, lookup, now));
    }

    long downloads = 0;
    long bytes = 0;
    long millis = 0;
    // a load publishes its table, then records its download: the figures of the loads this
    // request saw finish may lag a moment behind (waited for, at most STATS_WAIT_MS in all)
    long statsDeadline = System.currentTimeMillis() + STATS_WAIT_MS;
    for (ModuleRef ref : waitedFor) {
      long wait =
          pending.containsKey(ref) ? 0 : Math.max(0, statsDeadline - System.currentTimeMillis());
      ApiSymbols.Download d = symbols.lastDownload(ref, wait);
      if (d == null) {
        d = symbols.lastDownload(ref.inScope(DebugIdentifiers.GLOBAL_SCOPE), wait);
      }
      if (d != null) {
        downloads++;
        bytes += d.bytes();
        millis += d.millis();
      }
    }
    int frames = 0;
    for (CrashEvent e : events) {
      frames += ApiFrames.count(e);
    }
    return new Result(
        out,
        lookup,
        new RequestStats(
            lookups,
            hits,
            downloads,
            bytes,
            millis,
            needed.size(),
            frames,
            (System.nanoTime() - started) / 1_000_000));
  }

  /**
   * Waits until each module is ready (found, or answered otherwise) or {@code deadlineMillis}
   * passes, asking for those not loaded, as {@link #symbolicate} does: for a route that reads
   * the tables itself (the minidump walk). A deadline already past only asks and looks once.
   * Returns the lookup to read them with.
   */
  public SymbolLookup await(Collection<ModuleRef> refs, Platform platform, long deadlineMillis)
      throws InterruptedException {
    ModuleReadiness rules = readiness.get(platform);
    if (rules == null) {
      throw ApiException.badRequest("no symbolication step for platform " + platform);
    }
    SymbolStore store =
        new SymbolStore(
            symbols.tables(), symbols.pageCache(), System::currentTimeMillis, StoreMetrics.NONE);
    Map<ModuleRef, ModuleReadiness> pending = new LinkedHashMap<>();
    for (ModuleRef ref : refs) {
      pending.put(ref, rules);
    }
    awaitReady(store, pending, new LinkedHashSet<>(), deadlineMillis);
    return new StoreSymbolLookup(store);
  }

  /**
   * Polls {@code pending} until empty or the deadline; removes each module once ready, adds
   * those that were not at first sight to {@code waitedFor}. Returns how many were ready at once.
   */
  private long awaitReady(
      SymbolStore store,
      Map<ModuleRef, ModuleReadiness> pending,
      Set<ModuleRef> waitedFor,
      long deadlineMillis)
      throws InterruptedException {
    long hits = 0;
    boolean first = true;
    while (true) {
      long now = System.currentTimeMillis();
      for (var it = pending.entrySet().iterator(); it.hasNext(); ) {
        var e = it.next();
        if (ready(store, e.getKey(), e.getValue(), now)) {
          if (first) {
            hits++;
          }
          it.remove();
        } else {
          waitedFor.add(e.getKey());
        }
      }
      first = false;
      if (pending.isEmpty() || System.currentTimeMillis() >= deadlineMillis) {
        return hits;
      }
      Thread.sleep(Math.min(POLL_MS, Math.max(1, deadlineMillis - System.currentTimeMillis())));
    }
  }

  private PlatformSymbolicator step(CrashEvent e) {
    PlatformSymbolicator step = steps.get(e.getPlatform());
    if (step == null) {
      throw ApiException.badRequest("no symbolication step for platform " + e.getPlatform());
    }
    return step;
  }

  /** As the stream's parking: scope first, then global ({@link ScopeFirst}). */
  private boolean ready(SymbolStore store, ModuleRef ref, ModuleReadiness rules, long now) {
    return ScopeFirst.ready(store, ref, (r, state) -> verdict(r, state, rules, now));
  }

  private boolean verdict(ModuleRef ref, ModuleState state, ModuleReadiness rules, long now) {
    return switch (rules.of(state, now)) {
      case READY -> {
        if (state != null && state.getStatus() == TableStatus.found) {
          symbols.used(ref);
        }
        yield true;
      }
      case READY_REBUILD -> {
        symbols.used(ref);
        symbols.request(ref, RequestReason.rebuild);
        yield true;
      }
      case REQUEST -> {
        symbols.request(ref, state == null ? RequestReason.missing : RequestReason.retry);
        yield false;
      }
      case WAIT -> false;
    };
  }
}
