package io.symbolicate.connectors.loader;

import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.schema.topic.TopicNames;
import io.symbolicate.symbols.id.BuildIdKeys;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.js.JsSymbolKeys;
import io.symbolicate.symbols.jvm.MappingLocator;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The symbol loader: consumes {@code symbols.requests} and {@code symbols.uploads}, coalesces
 * duplicate requests, fetches debug files from the sources with bounded concurrency and retries
 * with backoff for transient failures, converts them with the platform engine, and publishes
 * tables and states. Runs inside the streams application by default, or on its own.
 */
public final class SymbolLoader implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SymbolLoader.class);

  /** Counters for metrics and the demo. */
  public static final class Stats {
    public final AtomicLong requests = new AtomicLong();
    public final AtomicLong coalesced = new AtomicLong();
    public final AtomicLong downloads = new AtomicLong();
    public final AtomicLong downloadedBytes = new AtomicLong();
    public final AtomicLong found = new AtomicLong();
    public final AtomicLong missing = new AtomicLong();
    public final AtomicLong malformed = new AtomicLong();
    public final AtomicLong failed = new AtomicLong();
    public final AtomicLong retries = new AtomicLong();
    public final AtomicLong evicted = new AtomicLong();
    public final AtomicLong rejected = new AtomicLong();

    /** Uploads handed to the loader that reads the module's requests (see forwardToOwner). */
    public final AtomicLong forwarded = new AtomicLong();

    /** CPU the loads' threads used reading, converting and publishing, as their pacers measured it. */
    public final AtomicLong loadCpuMillis = new AtomicLong();

    /** Time the loads slept to leave the cores to others ({@link CpuBudget}). */
    public final AtomicLong pausedMillis = new AtomicLong();

    /** Wall time of the finished loads, and how many (the status page's mean load time). */
    public final AtomicLong loadWallMillis = new AtomicLong();

    public final AtomicLong loadsTimed = new AtomicLong();

    /** Loads running now, by a sequence number: the module and when it started. */
    public final Map<Long, RunningLoad> running = new ConcurrentHashMap<>();

    private final AtomicLong loadSeq = new AtomicLong();

    /** One load in progress. */
    public record RunningLoad(String module, long startedAtMillis) {}

    long loadStarted(String module, long now) {
      long id = loadSeq.incrementAndGet();
      running.put(id, new RunningLoad(module, now));
      return id;
    }

    void loadFinished(long id, long now) {
      RunningLoad r = running.remove(id);
      if (r != null) {
        loadWallMillis.addAndGet(Math.max(0, now - r.startedAtMillis()));
        loadsTimed.incrementAndGet();
      }
    }

    void paced(LoadPacer pacer) {
      loadCpuMillis.addAndGet(pacer.workMillis());
      pausedMillis.addAndGet(pacer.sleptMillis());
    }
  }

  private final TopicNames topics;
  private final Map<TableKind, TableConverter> converters;
  private final LoaderSettings settings;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final KafkaProducer<byte[], byte[]> producer;
  private final TablePublisher publisher;
  private final ModuleFetcher fetcher;
  private final ExecutorService workers;
  private volatile ConverterWarmup warmup;
  private final ScheduledExecutorService housekeeping;
  private final Thread pollThread;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AvroSerde<SymbolRequest> requestSerde = WireSerdes.symbolRequest();
  private final AvroSerde<ModuleState> stateSerde = WireSerdes.moduleState();
  private final Stats stats = new Stats();

  /** What the loader knows of every module (from symbols.index and its own work). */
  private final Map<ModuleRef, ModuleState> view = new ConcurrentHashMap<>();

  private final Set<ModuleRef> inFlight = ConcurrentHashMap.newKeySet();
  private final Set<ModuleRef> reloadAfter = ConcurrentHashMap.newKeySet();
  private final Map<ModuleRef, Long> finishedAt = new ConcurrentHashMap<>();
  private final Set<ModuleRef> touched = ConcurrentHashMap.newKeySet();
  private volatile boolean indexLoaded;
  // the partitions of symbols.requests this loader reads: the modules whose requests and use it
  // sees, and so the only ones it may judge unused (another loader's view of them is stale)
  private final Set<Integer> owned = ConcurrentHashMap.newKeySet();
  private volatile int requestPartitions;

  public SymbolLoader(
      String bootstrap,
      Map<String, String> clientOverrides,
      String groupId,
      TopicNames topics,
      SourceChain sources,
      Map<TableKind, TableConverter> converters,
      Map<TableKind, ModuleLocator> locators,
      LoaderSettings settings) {
    this.topics = topics;
    this.converters = Map.copyOf(converters);
    this.settings = settings;

    Properties c = new Properties();
    clientOverrides.forEach(c::put);
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, true);
    c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
    this.consumer =
        new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());

    Properties p = new Properties();
    clientOverrides.forEach(p::put);
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 << 20);
    this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    this.publisher = new TablePublisher(producer, topics.tables(), topics.index());
    this.fetcher = new ModuleFetcher(sources, converters, locators, settings, stats);

    this.workers =
        Executors.newFixedThreadPool(
            settings.concurrency(),
            r -> {
              Thread t = new Thread(r, "symbol-loader-worker");
              t.setDaemon(true);
              return t;
            });
    this.housekeeping =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "symbol-loader-housekeeping");
              t.setDaemon(true);
              return t;
            });
    this.pollThread = new Thread(this::pollLoop, "symbol-loader");
    this.pollThread.setDaemon(true);
  }

  public SymbolLoader start() {
    pollThread.start();
    if (settings.warmup()) {
      warmup = ConverterWarmup.start(converters.values(), settings.cpuBudget());
    }
    long sweep =
        Math.max(
            1000, Math.min(Duration.ofHours(1).toMillis(), settings.unusedTtl().toMillis() / 10));
    housekeeping.scheduleWithFixedDelay(this::sweep, sweep, sweep, TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * The converters' warm-up started with this loader: what each warmed converter converted, or
   * nothing when {@code loader.warmup} is off or another loader in this JVM did it already.
   */
  public CompletableFuture<Map<TableKind, Long>> warmupDone() {
    ConverterWarmup w = warmup;
    return w == null ? CompletableFuture.completedFuture(Map.of()) : w.done();
  }

  public Stats stats() {
    return stats;
  }

  public boolean indexLoaded() {
    return indexLoaded;
  }

  /**
   * True when the loader's poll thread ended on its own (an unexpected error, logged): it no
   * longer reads requests, so health reports the instance DOWN rather than silently UP.
   */
  public boolean failed() {
    return running.get() && pollThread.getState() == Thread.State.TERMINATED;
  }

  /** Number of loads queued or running. */
  public int inFlight() {
    return inFlight.size();
  }

  private void pollLoop() {
    try {
      loadIndex();
      requestPartitions = consumer.partitionsFor(topics.requests()).size();
      consumer.subscribe(
          List.of(topics.requests(), topics.uploads()),
          new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> parts) {
              own(parts, true);
            }

            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> parts) {
              own(parts, false);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> parts) {
              own(parts, false);
            }
          });
      while (running.get()) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          handle(r);
        }
      }
    } catch (WakeupException e) {
      if (running.get()) {
        throw e;
      }
    } catch (RuntimeException e) {
      log.error("symbol loader stopped", e);
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  /** Reads symbols.index from the beginning to rebuild the view of what is loaded. */
  private void loadIndex() {
    List<TopicPartition> parts =
        consumer.partitionsFor(topics.index()).stream()
            .map(pi -> new TopicPartition(pi.topic(), pi.partition()))
            .toList();
    consumer.assign(parts);
    consumer.seekToBeginning(parts);
    Map<TopicPartition, Long> end = consumer.endOffsets(parts);
    int n = 0;
    while (running.get() && parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        ModuleRef ref;
        try {
          ref = ModuleRef.parse(new String(r.key(), StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
          // a record we did not write (or a null key) must not stop the loader
          log.warn(
              "ignoring index entry with an invalid key at {}-{} offset {}: {}",
              r.topic(),
              r.partition(),
              r.offset(),
              e.getMessage());
          continue;
        }
        if (r.value() == null) {
          view.remove(ref);
        } else {
          try {
            view.put(ref, stateSerde.decode(r.value()));
            n++;
          } catch (IOException | RuntimeException e) {
            log.warn("ignoring undecodable index entry for {}", ref);
          }
        }
      }
    }
    consumer.unsubscribe();
    indexLoaded = true;
    log.info("symbol loader: {} index entries, {} modules known", n, view.size());
  }

  private void handle(ConsumerRecord<byte[], byte[]> r) {
    stats.requests.incrementAndGet();
    SymbolRequest req;
    ModuleRef ref;
    try {
      req = requestSerde.decode(r.value());
      ref =
          canonical(
              new ModuleRef(
                  req.getScope(), ModuleRef.kindOf(req.getPlatform()), req.getModuleKey()));
      fetcher.keys(ref); // validates identifiers before anything is fetched
    } catch (IOException | RuntimeException e) {
      stats.rejected.incrementAndGet();
      log.warn(
          "ignoring invalid request on {} at offset {}: {}", r.topic(), r.offset(), e.getMessage());
      return;
    }
    boolean announced = r.topic().equals(topics.uploads());
    boolean upload = announced || req.getReason() == RequestReason.upload;
    if (announced && forwardToOwner(ref, req)) {
      return;
    }
    long now = System.currentTimeMillis();
    if (req.getReason() == RequestReason.used) {
      touched.add(ref);
      return;
    }
    if (!upload && !worthLoading(ref, req, now)) {
      stats.coalesced.incrementAndGet();
      return;
    }
    boolean lacking = !upload && lacksTable(ref, view.get(ref), req);
    if (!inFlight.add(ref)) {
      if (upload) {
        // the running load may predate the upload: it loads again when it ends. Asked again
        // after marking, as that load may have ended in between without seeing the mark
        reloadAfter.add(ref);
        if (inFlight.add(ref)) {
          reloadAfter.remove(ref);
          workers.submit(() -> load(ref, true, false));
          return;
        }
      }
      stats.coalesced.incrementAndGet();
      return;
    }
    workers.submit(() -> load(ref, upload, lacking));
  }

  /**
   * Hands an upload to the loader that reads the module's partition of {@code symbols.requests},
   * as an upload request keyed as the stream keys the module's requests. An upload is keyed by
   * whoever announces it (by hand, another spelling of the ids, another partition count), so it
   * may land on another loader than the module's requests: two loaders then loaded the module
   * at once, and the one that did not own it kept a view of it that no use ever refreshed.
   * Returns false when this loader owns the module, or when the forward fails (then the upload is
   * loaded here, as before: loading twice is better than not at all).
   */
  private boolean forwardToOwner(ModuleRef ref, SymbolRequest req) {
    if (requestPartitions <= 0 || owns(ref)) {
      return false;
    }
    SymbolRequest forwarded =
        SymbolRequest.newBuilder(req)
            .setModuleKey(ref.key())
            .setReason(RequestReason.upload)
            .build();
    try {
      producer
          .send(
              new ProducerRecord<>(
                  topics.requests(),
                  ref.toString().getBytes(StandardCharsets.UTF_8),
                  requestSerde.encode(forwarded)))
          .get(10, TimeUnit.SECONDS);
      stats.forwarded.incrementAndGet();
      log.info("upload of {} handed to the loader that reads its requests", ref);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception e) {
      log.warn(
          "could not hand the upload of {} to its loader ({}); loading it here", ref, e.toString());
      return false;
    }
  }

  /**
   * The module as the stream names it: an upload announced by hand may write a debug id in lower
   * case or GUID form, and its state would then go under a key no event looks up (the stale
   * negative answer staying in place). Identifiers that do not normalise stay as given (and are
   * refused by the validation after this).
   */
  static ModuleRef canonical(ModuleRef ref) {
    String key = ref.key();
    try {
      String canonical =
          switch (ref.kind()) {
            case NATIVE -> {
              if (SymbfileKeys.isFileIdKey(key)) {
                // a FileID in hex or standard base64 names the same executable as its base64url
                yield SymbfileKeys.moduleKey(SymbfileKeys.fileId(key));
              }
              if (BuildIdKeys.isBuildIdKey(key)) {
                // a build id with dashes or in upper case names the same module
                BuildIdKeys.BuildId id = BuildIdKeys.parse(key);
                yield BuildIdKeys.key(id.codeId(), id.fileName());
              }
              int slash = key.indexOf('/');
              yield slash <= 0
                  ? key
                  : DebugIdentifiers.nativeModule(key.substring(0, slash), key.substring(slash + 1))
                      .key();
            }
            case JVM -> MappingLocator.normaliseUuid(key);
            case JS -> {
              String id = JsSymbolKeys.normalizeDebugId(key);
              yield id != null ? id : key;
            }
            case DOTNET -> key; // name/DEBUG_ID, validated by DotnetModuleLocator
          };
      return canonical.equals(key) ? ref : new ModuleRef(ref.scope(), ref.kind(), canonical);
    } catch (IllegalArgumentException e) {
      return ref;
    }
  }

  /** Whether a (non-upload) request should trigger a load, given what is already known. */
  private boolean worthLoading(ModuleRef ref, SymbolRequest req, long now) {
    RequestReason reason = req.getReason();
    Long done = finishedAt.get(ref);
    if (done != null && now - done < settings.coalesceWindow().toMillis()) {
      return false;
    }
    ModuleState s = view.get(ref);
    if (s == null) {
      return true;
    }
    TableConverter conv = converters.get(ref.kind());
    return switch (s.getStatus()) {
      case found ->
          conv != null && s.getFormatVersion() != conv.formatVersion() || lacksTable(ref, s, req);
      case missing, malformed, fetch_failed ->
          reason == RequestReason.retry
              || s.getRetryAfter() == null
              || s.getRetryAfter().toEpochMilli() <= now;
      default -> true;
    };
  }

  /**
   * A stream asked for a module as unknown after this loader found it (in the current format):
   * it lacks the table. Another loader evicted it, or an upload's reload failed after its state
   * was forgotten. Only a request made well after the table was written counts: a new loader
   * group reads the requests that made it load (and a store merely behind is not reloaded for).
   * Such a reload does not keep the table on a transient failure: nobody has it.
   */
  private boolean lacksTable(ModuleRef ref, ModuleState s, SymbolRequest req) {
    TableConverter conv = converters.get(ref.kind());
    return s != null
        && s.getStatus() == TableStatus.found
        && conv != null
        && s.getFormatVersion() == conv.formatVersion()
        && req.getReason() == RequestReason.missing
        && req.getRequestedAt() != null
        && s.getUpdatedAt() != null
        && req.getRequestedAt().toEpochMilli() - s.getUpdatedAt().toEpochMilli()
            > settings.coalesceWindow().toMillis();
  }

  private void load(ModuleRef ref, boolean upload, boolean lacking) {
    ModuleState previous = view.get(ref);
    try {
      if (upload) {
        publisher.forgetState(ref); // events that arrive now wait for the new file
      }
      ModuleFetcher.Outcome o = fetcher.load(ref, publisher, previous, !lacking);
      if (upload && o.keptPrevious()) {
        publisher.publishState(ref, o.state()); // the reload failed for now: the old table again
      }
      remember(ref, o.state());
    } catch (Exception e) {
      // nothing may be known any more (an upload's state was forgotten): a later request loads
      // again
      view.remove(ref);
      log.error("loading {} failed", ref, e);
    } finally {
      finishedAt.put(ref, System.currentTimeMillis());
      inFlight.remove(ref);
      if (reloadAfter.remove(ref) && inFlight.add(ref)) {
        workers.submit(() -> load(ref, true, false));
      }
    }
  }

  private void remember(ModuleRef ref, ModuleState state) {
    view.put(ref, state);
  }

  /** Evicts tables unused for longer than the TTL and records recent use on the index. */
  private void own(Collection<TopicPartition> parts, boolean assigned) {
    for (TopicPartition tp : parts) {
      if (tp.topic().equals(topics.requests())) {
        if (assigned) {
          owned.add(tp.partition());
        } else {
          owned.remove(tp.partition());
        }
      }
    }
  }

  /** The partitions of {@code symbols.requests} this loader reads now. */
  Set<Integer> ownedPartitions() {
    return Set.copyOf(owned);
  }

  /**
   * Whether this loader reads the partition of {@code symbols.requests} that the module's
   * requests go to (keyed by the reference, Kafka's default partitioner), and so sees its use.
   */
  boolean owns(ModuleRef ref) {
    int n = requestPartitions;
    if (n <= 0) {
      return false;
    }
    byte[] key = ref.toString().getBytes(StandardCharsets.UTF_8);
    return owned.contains(Utils.toPositive(Utils.murmur2(key)) % n);
  }

  void sweep() {
    long now = System.currentTimeMillis();
    try {
      for (ModuleRef ref : new ArrayList<>(touched)) {
        if (inFlight.contains(ref)) {
          continue; // a load is replacing the state: its last_used would write the old one back
        }
        touched.remove(ref);
        ModuleState s = view.get(ref);
        if (s != null && s.getStatus() == TableStatus.found) {
          s.setLastUsed(Instant.ofEpochMilli(now));
          publisher.publishState(ref, s);
        }
      }
      finishedAt.values().removeIf(t -> now - t > settings.coalesceWindow().toMillis());
      Map<ModuleRef, ModuleState> snapshot = new HashMap<>(view);
      for (Map.Entry<ModuleRef, ModuleState> e : snapshot.entrySet()) {
        ModuleState s = e.getValue();
        if (inFlight.contains(e.getKey()) || !owns(e.getKey())) {
          continue;
        }
        if (s.getStatus() != TableStatus.found) {
          // a negative answer nobody asked about again for the TTL after it could have been
          // retried: forgotten, so junk module ids in crash traffic do not accumulate forever
          Instant retry = s.getRetryAfter() != null ? s.getRetryAfter() : s.getUpdatedAt();
          if (now - retry.toEpochMilli() > settings.unusedTtl().toMillis()) {
            publisher.evict(e.getKey(), s);
            view.remove(e.getKey());
            stats.evicted.incrementAndGet();
          }
          continue;
        }
        Instant used = s.getLastUsed() != null ? s.getLastUsed() : s.getUpdatedAt();
        if (now - used.toEpochMilli() > settings.unusedTtl().toMillis()) {
          publisher.evict(e.getKey(), s);
          view.remove(e.getKey());
          stats.evicted.incrementAndGet();
          log.info("evicted {} (unused since {})", e.getKey(), used);
        }
      }
    } catch (Exception e) {
      log.warn("housekeeping failed; will retry", e);
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    running.set(false);
    if (pollThread.getState() == Thread.State.NEW) {
      consumer.close(Duration.ZERO); // never started: the poll loop that closes it never ran
    }
    consumer.wakeup();
    try {
      pollThread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (warmup != null) {
      warmup.close();
    }
    housekeeping.shutdownNow();
    workers.shutdownNow();
    try {
      workers.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    publisher.close(); // the replaced pages still waiting, before the producer goes
    producer.close(Duration.ofSeconds(5));
  }
}
