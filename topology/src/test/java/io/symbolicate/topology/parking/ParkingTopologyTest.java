package io.symbolicate.topology.parking;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.nativecode.NativeModuleResolver;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.testkit.events.SampleEvents;
import io.symbolicate.topology.SymbolicationTopology;
import io.symbolicate.topology.TestPlatforms;
import io.symbolicate.topology.config.TopologyConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parking, releasing and the caching rules, driven through the real topology with a test step
 * whose pages are plain strings ("function name for addresses from the page key on").
 */
class ParkingTopologyTest {
  @TempDir Path stateDir;

  private static final Instant T0 = Instant.parse("2026-11-22T12:00:00Z");
  private static final String APP = "crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";
  private static final String LIBC = "libc.so.6/A1B2C3D4E5F60718293A4B5C6D7E8F900";

  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> raw;
  private TestInputTopic<byte[], byte[]> tables;
  private TestOutputTopic<String, SymbolicatedEvent> out;
  private TestOutputTopic<String, SymbolRequest> requests;
  private TestOutputTopic<String, MissingSymbols> missing;

  /** A native step that needs every module with a debug id and reads one string per page. */
  static final class StringPageStep implements PlatformSymbolicator {
    @Override
    public Platform platform() {
      return Platform.native$;
    }

    @Override
    public int tableFormatVersion() {
      return 2;
    }

    @Override
    public int minReadableTableVersion() {
      return 1;
    }

    @Override
    public List<ModuleRef> modulesNeeded(CrashEvent e) {
      List<ModuleRef> refs = new ArrayList<>();
      for (NativeModule m : e.getNative$().getModules()) {
        String key = NativeModuleResolver.moduleKey(m);
        if (key != null) {
          refs.add(new ModuleRef(e.getScope(), TableKind.NATIVE, key));
        }
      }
      return refs;
    }

    @Override
    public SymbolicatedEvent symbolicate(CrashEvent e, SymbolLookup lookup, long now) {
      var out = SymbolicatedEvents.builder(e, now);
      List<NativeModule> modules = e.getNative$().getModules();
      List<SymbolLookup.Resolution> res = new ArrayList<>();
      for (int i = 0; i < modules.size(); i++) {
        SymbolLookup.Resolution r =
            lookup.resolve(
                new ModuleRef(
                    e.getScope(),
                    TableKind.NATIVE,
                    NativeModuleResolver.moduleKey(modules.get(i))));
        res.add(r);
        out.getModules()
            .add(
                SymbolicatedEvents.module(
                    i,
                    NativeModuleResolver.moduleKey(modules.get(i)),
                    r.moduleStatus(),
                    r.message()));
      }
      NativeModuleResolver resolver = new NativeModuleResolver(modules);
      List<SymbolicatedFrame> frames = new ArrayList<>();
      var in = e.getNative$().getThreads().get(0).getFrames();
      for (int i = 0; i < in.size(); i++) {
        var r = resolver.resolve(in.get(i));
        if (r.kind() != NativeModuleResolver.Resolution.Kind.RESOLVED) {
          frames.add(SymbolicatedEvents.frame(i, FrameStatus.invalid_frame, r.message()).build());
          continue;
        }
        SymbolLookup.Resolution m = res.get(r.moduleIndex());
        String fn =
            m.found()
                ? lookup
                    .pages(m, b -> new String(b, StandardCharsets.UTF_8))
                    .floor(r.moduleOffset())
                : null;
        frames.add(
            SymbolicatedEvents.frame(
                    i, fn != null ? FrameStatus.symbolicated : FrameStatus.missing_symbols, null)
                .setFunction(fn)
                .setModuleIndex(r.moduleIndex())
                .setModuleOffset(r.moduleOffset())
                .build());
      }
      out.getStacks().add(SymbolicatedEvents.stack(StackKind.thread, 0, frames));
      return out.build();
    }
  }

  @BeforeEach
  void start() {
    TopologyConfig cfg =
        TopologyConfig.defaults()
            .withParking(
                new TopologyConfig.Parking(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    1000,
                    Duration.ofSeconds(5),
                    Duration.ofHours(1)));
    var steps = new java.util.EnumMap<>(TestPlatforms.steps());
    steps.put(Platform.native$, new StringPageStep());
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "parking-test");
    p.put(
        StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()); // never the shared /tmp/kafka-streams
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver =
        new TopologyTestDriver(
            SymbolicationTopology.build(cfg, steps, new PageCache(1 << 20)), p, T0);
    var bytes = Serdes.ByteArray().serializer();
    raw = driver.createInputTopic(cfg.topics().raw(), bytes, bytes);
    tables = driver.createInputTopic(cfg.topics().tables(), bytes, bytes);
    out =
        driver.createOutputTopic(
            cfg.topics().symbolicated(),
            Serdes.String().deserializer(),
            WireSerdes.symbolicatedEvent().deserializer());
    requests =
        driver.createOutputTopic(
            cfg.topics().requests(),
            Serdes.String().deserializer(),
            WireSerdes.symbolRequest().deserializer());
    missing =
        driver.createOutputTopic(
            cfg.topics().missing(),
            Serdes.String().deserializer(),
            WireSerdes.missingSymbols().deserializer());
  }

  @AfterEach
  void stop() {
    driver.close();
  }

  private void send(CrashEvent e) {
    raw.pipeInput(null, WireSerdes.crashEvent().encode(e));
  }

  private long now() {
    return T0.toEpochMilli() + elapsed;
  }

  private long elapsed;

  private void advance(Duration d) {
    elapsed += d.toMillis();
    driver.advanceWallClockTime(d);
  }

  private void found(String scope, String key, int version, Map<Long, String> pages) {
    ModuleRef ref = new ModuleRef(scope, TableKind.NATIVE, key);
    List<Long> keys = new ArrayList<>(new java.util.TreeMap<>(pages).keySet());
    for (long k : keys) {
      tables.pipeInput(TableKeys.page(ref, 7, k), pages.get(k).getBytes(StandardCharsets.UTF_8));
    }
    tables.pipeInput(
        TableKeys.state(ref),
        WireSerdes.moduleState()
            .encode(
                state(ref, TableStatus.found, version)
                    .setGeneration(7)
                    .setPageKeys(keys)
                    .setPageCount(keys.size())
                    .build()));
  }

  private void negative(
      String scope, String key, TableStatus status, long updatedAt, long retryAfter, int version) {
    ModuleRef ref = new ModuleRef(scope, TableKind.NATIVE, key);
    tables.pipeInput(
        TableKeys.state(ref),
        WireSerdes.moduleState()
            .encode(
                state(ref, status, version)
                    .setUpdatedAt(Instant.ofEpochMilli(updatedAt))
                    .setRetryAfter(Instant.ofEpochMilli(retryAfter))
                    .setMessage(status + " in test")
                    .build()));
  }

  private static ModuleState.Builder state(ModuleRef ref, TableStatus status, int version) {
    return ModuleState.newBuilder()
        .setModule(ref.toString())
        .setStatus(status)
        .setFormatVersion(version)
        .setGeneration(0)
        .setHeader(null)
        .setPageCount(0)
        .setPageKeys(List.of())
        .setTableBytes(0)
        .setSource("test")
        .setMessage(null)
        .setUpdatedAt(T0)
        .setLastUsed(null)
        .setRetryAfter(null);
  }

  @Test
  void parksUntilTheTablesArriveAndRequestsEachModuleOnce() {
    send(SampleEvents.nativeEvent("e-1"));
    send(SampleEvents.nativeEvent("e-2"));
    assertThat(out.isEmpty()).as("parked, not emitted").isTrue();
    List<SymbolRequest> reqs = requests.readValuesToList();
    assertThat(reqs).extracting(SymbolRequest::getModuleKey).containsExactlyInAnyOrder(APP, LIBC);
    assertThat(reqs)
        .allMatch(r -> r.getReason() == RequestReason.missing && r.getScope().equals("global"));

    found("global", APP, 2, Map.of(0x1000L, "main", 0x1b00L, "crash_here"));
    advance(Duration.ofMillis(200));
    assertThat(out.isEmpty()).as("libc still unknown").isTrue();
    negative("global", LIBC, TableStatus.missing, now(), now() + 3_600_000, 0);
    advance(Duration.ofMillis(200));

    List<SymbolicatedEvent> got = out.readValuesToList();
    assertThat(got)
        .extracting(e -> e.getEvent().getEventId())
        .containsExactlyInAnyOrder("e-1", "e-2");
    SymbolicatedEvent e = got.get(0);
    assertThat(e.getModules())
        .extracting(m -> m.getStatus())
        .containsExactly(ModuleStatus.found, ModuleStatus.missing);
    List<SymbolicatedFrame> frames = e.getStacks().get(0).getFrames();
    assertThat(frames.get(0).getFunction()).isEqualTo("main"); // 0x1a2b
    assertThat(frames.get(1).getFunction()).isEqualTo("crash_here"); // 0x1c40
    assertThat(frames.get(2).getStatus()).isEqualTo(FrameStatus.missing_symbols);
    // both events counted the missing module
    List<MissingSymbols> counts = missing.readValuesToList();
    assertThat(counts).isNotEmpty();
    MissingSymbols last = counts.get(counts.size() - 1);
    assertThat(last.getModule()).isEqualTo(LIBC);
    assertThat(last.getCount()).isEqualTo(2);
  }

  @Test
  void aReprocessedEventThatStillMissesAModuleIsNotCountedAgain() {
    found("global", APP, 2, Map.of(0x1000L, "main", 0x1b00L, "crash_here"));
    negative("global", LIBC, TableStatus.missing, now(), now() + 3_600_000, 0);
    send(SampleEvents.nativeEvent("e-1"));
    CrashEvent again = SampleEvents.nativeEvent("e-1");
    again.setAttributes(Map.of("reprocessed", "true"));
    send(again);
    send(SampleEvents.nativeEvent("e-2"));
    List<SymbolicatedEvent> got = out.readValuesToList();
    assertThat(got)
        .extracting(SymbolicatedEvent::getReprocessed)
        .containsExactly(false, true, false);
    assertThat(got.get(1).getModules())
        .extracting(ModuleResult::getStatus)
        .containsExactly(ModuleStatus.found, ModuleStatus.missing);
    List<MissingSymbols> counts = missing.readValuesToList();
    assertThat(counts).extracting(MissingSymbols::getCount).containsExactly(1L, 2L);
  }

  /**
   * With more than 10,000 modules waiting (a cold start), each is still asked for once per
   * request.retry: the throttle's map was cleared whole whenever it held more than 10,000, so it
   * refilled at every pass and every module was asked for again every 100 ms.
   */
  @Test
  void manyWaitingModulesAreStillAskedForOncePerRetry() {
    for (int e = 0; e < 11; e++) {
      CrashEvent event = SampleEvents.nativeEvent("many-" + e);
      List<NativeModule> mods = new ArrayList<>();
      for (int m = 0; m < 1000; m++) {
        mods.add(
            NativeModule.newBuilder(event.getNative$().getModules().get(0))
                .setDebugFile("m" + m)
                .setDebugId(String.format("%032X%d", e * 1000 + m, 0))
                .build());
      }
      event.getNative$().setModules(mods);
      send(event);
    }
    assertThat(requests.readValuesToList()).hasSize(11_000);
    advance(Duration.ofMillis(300));
    assertThat(requests.readValuesToList()).as("within request.retry").isEmpty();
    advance(Duration.ofSeconds(5));
    assertThat(requests.readValuesToList()).as("once more after it").hasSize(11_000);
    advance(Duration.ofMillis(300));
    assertThat(requests.readValuesToList()).isEmpty();
  }

  /**
   * A burst of events naming random module ids: the throttle map, and the symbol requests, stay
   * within {@link ParkingProcessor#MAX_REQUESTED_BYTES} per request.retry (they grew without
   * bound), a pass takes at most half of it, and the modules that found no room are asked for
   * once older requests have made room, from where the last pass ran out, so an ordinary event
   * that came after the burst is not starved by the burst's modules asked for again.
   */
  @Test
  void aBurstOfRandomModulesIsAskedForWithinABudgetAndEveryEventGetsItsTurn() {
    int events = 30;
    List<String> burst = new ArrayList<>();
    for (int e = 0; e < events; e++) {
      CrashEvent event = SampleEvents.nativeEvent("burst-" + e);
      List<NativeModule> mods = new ArrayList<>();
      for (int m = 0; m < 1000; m++) {
        NativeModule mod =
            NativeModule.newBuilder(event.getNative$().getModules().get(0))
                .setDebugFile("m" + m)
                .setDebugId(String.format("%032X%d", e * 1000 + m, 0))
                .build();
        mods.add(mod);
        burst.add(NativeModuleResolver.moduleKey(mod));
      }
      event.getNative$().setModules(mods);
      send(event);
    }
    List<SymbolRequest> first = requests.readValuesToList();
    long firstBytes = bytesOf(first);
    assertThat(first.size()).as("not all 30,000").isLessThan(burst.size());
    assertThat(firstBytes)
        .isGreaterThanOrEqualTo(ParkingProcessor.MAX_REQUESTED_BYTES)
        .isLessThan(ParkingProcessor.MAX_REQUESTED_BYTES + 200);
    send(SampleEvents.nativeEvent("live"));
    advance(Duration.ofSeconds(1));
    assertThat(requests.readValuesToList()).as("no room within request.retry").isEmpty();

    // nothing answered: the old requests make room, and the pass starts where the last one ran out
    advance(Duration.ofSeconds(5));
    List<SymbolRequest> next = requests.readValuesToList();
    java.util.Set<String> asked = new java.util.HashSet<>();
    first.forEach(r -> asked.add(r.getModuleKey()));
    java.util.Set<String> nextKeys = new java.util.HashSet<>();
    next.forEach(r -> nextKeys.add(r.getModuleKey()));
    assertThat(nextKeys).as("the live event's modules").contains(APP, LIBC);
    assertThat(nextKeys)
        .as("every burst module not asked for before")
        .containsAll(burst.stream().filter(k -> !asked.contains(k)).toList());
    assertThat(bytesOf(next))
        .as("a pass takes half the budget at most")
        .isLessThan(ParkingProcessor.MAX_REQUESTED_BYTES / 2 + 200);
  }

  private static long bytesOf(List<SymbolRequest> requests) {
    return requests.stream()
        .mapToLong(
            r ->
                ParkingProcessor.refBytes(
                    new ModuleRef(r.getScope(), TableKind.NATIVE, r.getModuleKey())))
        .sum();
  }

  @Test
  void knownModulesAreSymbolicatedWithoutParking() {
    found("global", APP, 2, Map.of(0L, "start"));
    negative("global", LIBC, TableStatus.missing, now(), now() + 3_600_000, 0);
    send(SampleEvents.nativeEvent("e-1"));
    assertThat(out.readValue().getStacks().get(0).getFrames().get(0).getFunction())
        .isEqualTo("start");
    // the found module is reported as used, for eviction; nothing else is requested
    assertThat(requests.readValuesToList())
        .extracting(SymbolRequest::getReason)
        .containsExactly(RequestReason.used);
    // ... at most once per touch interval
    send(SampleEvents.nativeEvent("e-2"));
    assertThat(out.readValue().getStacks().get(0).getFrames().get(0).getFunction())
        .isEqualTo("start");
    assertThat(requests.readValuesToList()).isEmpty();
  }

  @Test
  void aDeadlineReleasesTheEventWithHonestStatuses() {
    send(SampleEvents.nativeEvent("e-1"));
    advance(Duration.ofSeconds(10));
    assertThat(out.isEmpty()).isTrue();
    advance(Duration.ofSeconds(25));
    SymbolicatedEvent e = out.readValue();
    assertThat(e.getModules())
        .extracting(m -> m.getStatus())
        .containsExactly(ModuleStatus.fetch_failed, ModuleStatus.fetch_failed);
    assertThat(e.getModules().get(0).getMessage()).contains("not loaded in time");
    // while waiting, unknown modules were asked for again after park.request.retry
    assertThat(requests.readValuesToList()).hasSizeGreaterThanOrEqualTo(4);
  }

  @Test
  void aTransientFailureKeepsTheEventParkedAndIsNeverAnAnswer() {
    negative("global", APP, TableStatus.fetch_failed, now(), now() + 60_000, 0);
    negative("global", LIBC, TableStatus.missing, now(), now() + 3_600_000, 0);
    send(SampleEvents.nativeEvent("e-1"));
    advance(Duration.ofSeconds(5));
    assertThat(out.isEmpty()).isTrue();
    found("global", APP, 2, Map.of(0L, "start"));
    advance(Duration.ofMillis(200));
    assertThat(out.readValue().getModules().get(0).getStatus()).isEqualTo(ModuleStatus.found);
  }

  @Test
  void expiredNegativesAndOldMalformedAnswersAreAskedForAgain() {
    // missing, but its retry time has passed: request again and wait
    negative("global", APP, TableStatus.missing, now() - 7_200_000, now() - 1, 0);
    // malformed before this instance started: tried again after a restart
    negative("global", LIBC, TableStatus.malformed, now() - 1000, now() + 86_400_000, 2);
    send(SampleEvents.nativeEvent("e-1"));
    assertThat(out.isEmpty()).isTrue();
    assertThat(requests.readValuesToList())
        .extracting(SymbolRequest::getReason)
        .containsExactlyInAnyOrder(RequestReason.retry, RequestReason.retry);
  }

  @Test
  void anOlderCompatibleTableIsServedWhileARebuildIsRequested() {
    found("global", APP, 1, Map.of(0L, "old_but_fine"));
    negative("global", LIBC, TableStatus.missing, now(), now() + 3_600_000, 0);
    send(SampleEvents.nativeEvent("e-1"));
    assertThat(out.readValue().getStacks().get(0).getFrames().get(0).getFunction())
        .isEqualTo("old_but_fine");
    assertThat(requests.readValuesToList())
        .extracting(SymbolRequest::getReason)
        .contains(RequestReason.rebuild);
  }

  @Test
  void anIncompatibleTableCountsAsAbsent() {
    found("global", APP, 9, Map.of(0L, "from_the_future"));
    negative("global", LIBC, TableStatus.missing, now(), now() + 3_600_000, 0);
    send(SampleEvents.nativeEvent("e-1"));
    assertThat(out.isEmpty()).isTrue();
    assertThat(requests.readValuesToList()).extracting(SymbolRequest::getModuleKey).contains(APP);
  }

  @Test
  void scopesSeeTheirOwnAndGlobalSymbolsButNeverAnotherScopes() {
    found("tenant-a", APP, 2, Map.of(0L, "private_a"));
    found("global", LIBC, 2, Map.of(0L, "libc_fn"));
    negative("tenant-b", APP, TableStatus.missing, now(), now() + 3_600_000, 0);
    negative("global", APP, TableStatus.missing, now(), now() + 3_600_000, 0);
    negative("tenant-a", LIBC, TableStatus.missing, now(), now() + 3_600_000, 0);
    negative("tenant-b", LIBC, TableStatus.missing, now(), now() + 3_600_000, 0);

    CrashEvent a = SampleEvents.nativeEvent("a-1");
    a.setScope("tenant-a");
    CrashEvent b = SampleEvents.nativeEvent("b-1");
    b.setScope("tenant-b");
    send(a);
    send(b);
    Map<String, SymbolicatedEvent> got = new java.util.HashMap<>();
    out.readValuesToList().forEach(e -> got.put(e.getEvent().getEventId(), e));
    assertThat(got.get("a-1").getStacks().get(0).getFrames().get(0).getFunction())
        .isEqualTo("private_a");
    assertThat(got.get("a-1").getStacks().get(0).getFrames().get(2).getFunction())
        .isEqualTo("libc_fn");
    assertThat(got.get("b-1").getStacks().get(0).getFrames().get(0).getFunction()).isNull();
    assertThat(got.get("b-1").getModules().get(0).getStatus()).isEqualTo(ModuleStatus.missing);
    assertThat(got.get("b-1").getStacks().get(0).getFrames().get(2).getFunction())
        .isEqualTo("libc_fn");
  }

  /**
   * Scope first, in both orders: a tenant's own copy wins even when the global copy of the same
   * module is already in the store (the global one only answers once the tenant's own answer has
   * settled negative).
   */
  @Test
  void aTenantsOwnCopyWinsOverACachedGlobalOne() {
    found("global", APP, 2, Map.of(0L, "global_main"));
    found("global", LIBC, 2, Map.of(0L, "libc_fn"));
    CrashEvent a = SampleEvents.nativeEvent("a-1");
    a.setScope("tenant-a");
    send(a);
    assertThat(out.isEmpty())
        .as("waits for the tenant's own answer though global is cached")
        .isTrue();
    assertThat(requests.readValuesToList())
        .extracting(r -> r.getScope() + "|" + r.getModuleKey())
        .contains("tenant-a|" + APP, "tenant-a|" + LIBC);

    found("tenant-a", APP, 2, Map.of(0L, "private_main"));
    negative("tenant-a", LIBC, TableStatus.missing, now(), now() + 3_600_000, 0);
    advance(Duration.ofMillis(200));
    SymbolicatedEvent got = out.readValuesToList().get(0);
    assertThat(got.getStacks().get(0).getFrames().get(0).getFunction()).isEqualTo("private_main");
    // the tenant has no libc of its own: the global copy answers
    assertThat(got.getStacks().get(0).getFrames().get(2).getFunction()).isEqualTo("libc_fn");
  }

  @Test
  void aTenantsOwnCopyWinsWhenItArrivesBeforeTheGlobalOne() {
    found("tenant-a", APP, 2, Map.of(0L, "private_main"));
    CrashEvent a = SampleEvents.nativeEvent("a-2");
    a.setScope("tenant-a");
    send(a);
    found("global", APP, 2, Map.of(0L, "global_main"));
    found("global", LIBC, 2, Map.of(0L, "libc_fn"));
    negative("tenant-a", LIBC, TableStatus.missing, now(), now() + 3_600_000, 0);
    advance(Duration.ofMillis(200));
    SymbolicatedEvent got = out.readValuesToList().get(0);
    assertThat(got.getStacks().get(0).getFrames().get(0).getFunction()).isEqualTo("private_main");
    assertThat(got.getStacks().get(0).getFrames().get(2).getFunction()).isEqualTo("libc_fn");
  }

  /**
   * An exception out of the punctuation would fail the task, and the restored store would hold
   * the same entry for the next punctuation: a partition stopped for good. Entries that cannot
   * be decoded, or whose step fails while naming their modules, go to the DLQ instead, and the
   * events parked beside them are released as usual.
   */
  @Test
  void aBrokenParkedEntryIsDeadLetteredAndTheOthersAreReleased() {
    var dlq =
        driver.createOutputTopic(
            TopologyConfig.defaults().topics().dlq(),
            Serdes.ByteArray().deserializer(),
            WireSerdes.deadLetter().deserializer());
    org.apache.kafka.streams.state.KeyValueStore<String, byte[]> parked =
        driver.getKeyValueStore(io.symbolicate.topology.store.StoreNames.PARKED_PREFIX + "native");
    send(SampleEvents.nativeEvent("n-ok"));
    assertThat(parked.approximateNumEntries()).isEqualTo(1);
    byte[] truncated = {1, 2, 3};
    parked.put("crash-events.raw-1-17", truncated);
    // an entry whose header reads but whose event does not: the event's bytes go, not the header
    byte[] notAvro = {9, 9, 9};
    parked.put(
        "crash-events.raw-1-18", ParkingProcessor.ParkedEvent.encode(now() + 1000, now(), notAvro));
    // a native event without its payload (the decoder would have refused it): the step throws
    CrashEvent noPayload = SampleEvents.nativeEvent("n-bad");
    noPayload.setNative$(null);
    parked.put(
        "crash-events.raw-0-9",
        ParkingProcessor.ParkedEvent.encode(
            now() + 1000, now(), WireSerdes.crashEvent().encode(noPayload)));

    advance(Duration.ofMillis(200));
    var dead = dlq.readValuesToList();
    assertThat(dead).hasSize(3);
    var byOffset = new java.util.HashMap<Long, io.symbolicate.schema.DeadLetter>();
    dead.forEach(d -> byOffset.put(d.getSourceOffset(), d));
    assertThat(byOffset.get(17L).getErrorKind())
        .isEqualTo(io.symbolicate.schema.ErrorKind.undecodable);
    assertThat(byOffset.get(17L).getSourcePartition()).isEqualTo(1);
    assertThat(byOffset.get(17L).getOriginalValue().array()).isEqualTo(truncated);
    assertThat(byOffset.get(18L).getErrorKind())
        .isEqualTo(io.symbolicate.schema.ErrorKind.undecodable);
    assertThat(byOffset.get(18L).getOriginalValue().array()).isEqualTo(notAvro);
    assertThat(byOffset.get(9L).getErrorKind())
        .isEqualTo(io.symbolicate.schema.ErrorKind.processing_error);
    assertThat(byOffset.get(9L).getEventId()).isEqualTo("n-bad");
    assertThat(parked.approximateNumEntries()).as("the good event still waits").isEqualTo(1);

    advance(Duration.ofSeconds(31));
    assertThat(out.readKeyValuesToList()).extracting(kv -> kv.key).containsExactly("n-ok");
    assertThat(parked.approximateNumEntries()).isZero();
  }
}
