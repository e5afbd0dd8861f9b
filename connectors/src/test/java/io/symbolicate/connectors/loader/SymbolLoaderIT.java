package io.symbolicate.connectors.loader;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.connectors.source.FileSystemSource;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.schema.topic.TopicNames;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.nativecode.SyntheticSymFile;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.testkit.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loader's caching rules on the real broker, driven through its topics as the stream drives
 * it: what it forgets, and what it loads again when a stream lacks a table it thinks is loaded.
 */
class SymbolLoaderIT {
  private static final AtomicInteger RUN = new AtomicInteger();
  private static EmbeddedKafka kafka;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.start();
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  private record Env(TopicNames topics, SymbolLoader loader) implements AutoCloseable {
    @Override
    public void close() {
      loader.close();
    }
  }

  private Env loader(LoaderSettings settings) {
    int n = RUN.incrementAndGet();
    var topics =
        new TopicNames(
            "raw", "out", "dlq", "req" + n, "tables" + n, "index" + n, "up" + n, "missing");
    kafka.createTopics(1, topics.requests(), topics.uploads(), topics.tables(), topics.index());
    return loader(settings, topics, "loader" + n);
  }

  private Env loader(LoaderSettings settings, TopicNames topics, String group) {
    SymbolLoader loader =
        new SymbolLoader(
                kafka.bootstrapServers(),
                Map.of(),
                group,
                topics,
                new SourceChain(List.of(new FileSystemSource(dir))),
                TestEngines.converters(),
                TestEngines.locators(),
                settings)
            .start();
    return new Env(topics, loader);
  }

  private static LoaderSettings settings(Duration unusedTtl, Duration coalesce) {
    LoaderSettings d = LoaderSettings.defaults();
    return new LoaderSettings(
        2,
        2,
        Duration.ofMillis(10),
        Duration.ofMillis(100),
        Duration.ofMillis(100),
        Duration.ofMillis(100),
        unusedTtl,
        d.maxInputBytes(),
        coalesce,
        d.cpuBudget(),
        false);
  }

  private ModuleRef module(int m, boolean upload) throws Exception {
    ModuleRef ref =
        new ModuleRef(
            DebugIdentifiers.GLOBAL_SCOPE,
            TableKind.NATIVE,
            DebugIdentifiers.nativeModule(
                    SyntheticSymFile.debugFile(m), SyntheticSymFile.debugId(m))
                .key());
    if (upload) {
      Path file = dir.resolve(TestEngines.locators().get(TableKind.NATIVE).keys(ref).get(0));
      Files.createDirectories(file.getParent());
      Files.write(file, SyntheticSymFile.sym(m, 50));
    }
    return ref;
  }

  private static void request(TopicNames topics, ModuleRef ref, RequestReason reason) {
    request(topics, ref, reason, Instant.now());
  }

  private static void upload(TopicNames topics, ModuleRef ref) {
    upload(topics, ref, null);
  }

  /** An upload announcement on the given partition (null: the key's). */
  private static void upload(TopicNames topics, ModuleRef ref, Integer partition) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      producer.send(
          new ProducerRecord<>(
              topics.uploads(),
              partition,
              ref.toString().getBytes(StandardCharsets.UTF_8),
              WireSerdes.symbolRequest()
                  .encode(
                      SymbolRequest.newBuilder()
                          .setScope(ref.scope())
                          .setPlatform(Platform.native$)
                          .setModuleKey(ref.key())
                          .setReason(RequestReason.upload)
                          .setRequestedAt(Instant.now())
                          .build())));
    }
  }

  private static void request(TopicNames topics, ModuleRef ref, RequestReason reason, Instant at) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      producer.send(
          new ProducerRecord<>(
              topics.requests(),
              ref.toString().getBytes(StandardCharsets.UTF_8),
              WireSerdes.symbolRequest()
                  .encode(
                      SymbolRequest.newBuilder()
                          .setScope(ref.scope())
                          .setPlatform(Platform.native$)
                          .setModuleKey(ref.key())
                          .setReason(reason)
                          .setRequestedAt(at)
                          .build())));
    }
  }

  /** The latest state per module on an index topic (null: a tombstone). */
  private static Map<String, ModuleState> latest(String topic) throws Exception {
    Map<String, ModuleState> out = new HashMap<>();
    for (Map.Entry<String, byte[]> e : latestBytes(topic).entrySet()) {
      out.put(
          e.getKey(), e.getValue() == null ? null : WireSerdes.moduleState().decode(e.getValue()));
    }
    return out;
  }

  /** The latest value per key (keys as ISO-8859-1 text, so any bytes survive), null for a tombstone. */
  private static Map<String, byte[]> latestBytes(String topic) throws Exception {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    Map<String, byte[]> out = new HashMap<>();
    try (var consumer =
        new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      var parts =
          consumer.partitionsFor(topic).stream()
              .map(i -> new TopicPartition(topic, i.partition()))
              .toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      var end = consumer.endOffsets(parts);
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          out.put(new String(r.key(), StandardCharsets.ISO_8859_1), r.value());
        }
      }
    }
    return out;
  }

  private static ModuleState awaitIndex(
      TopicNames topics, ModuleRef ref, Predicate<ModuleState> done) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      Map<String, ModuleState> index = latest(topics.index());
      if (index.containsKey(ref.toString()) && done.test(index.get(ref.toString()))) {
        return index.get(ref.toString());
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        "index never reached the expected state for " + ref + ": " + latest(topics.index()));
  }

  /**
   * Tables unused for the TTL are removed (tombstones on both topics), and so are negative
   * answers nobody asked about again for the TTL after they could have been retried: every junk
   * module id in crash traffic used to stay in every loader's heap and every instance's store.
   */
  @Test
  void unusedTablesAndStaleNegativeAnswersAreTombstoned() throws Exception {
    try (Env env = loader(settings(Duration.ofMillis(1500), Duration.ofMillis(100)))) {
      ModuleRef found = module(0, true);
      ModuleRef missing = module(1, false);
      request(env.topics(), found, RequestReason.missing);
      request(env.topics(), missing, RequestReason.missing);
      ModuleState f =
          awaitIndex(env.topics(), found, s -> s != null && s.getStatus() == TableStatus.found);
      awaitIndex(env.topics(), missing, s -> s != null && s.getStatus() == TableStatus.missing);
      assertThat(f.getPageKeys()).isNotEmpty();

      awaitIndex(env.topics(), found, s -> s == null);
      awaitIndex(env.topics(), missing, s -> s == null);
      Map<String, byte[]> tables = latestBytes(env.topics().tables());
      assertThat(tables)
          .containsEntry(new String(TableKeys.state(found), StandardCharsets.ISO_8859_1), null)
          .containsEntry(new String(TableKeys.state(missing), StandardCharsets.ISO_8859_1), null);
      for (long page : f.getPageKeys()) {
        assertThat(tables)
            .containsEntry(
                new String(
                    TableKeys.page(found, f.getGeneration(), page), StandardCharsets.ISO_8859_1),
                null);
      }
      assertThat(env.loader().stats().evicted.get()).isEqualTo(2);
    }
  }

  /**
   * A stream that asks for a module the loader has found lacks its table (another loader evicted
   * it, or an upload's reload failed after its state was forgotten): the loader loads it again
   * instead of refusing until it restarts.
   */
  @Test
  void aFoundModuleAStreamLacksIsLoadedAgain() throws Exception {
    try (Env env = loader(settings(Duration.ofDays(7), Duration.ofMillis(300)))) {
      ModuleRef ref = module(2, true);
      request(env.topics(), ref, RequestReason.missing);
      ModuleState first =
          awaitIndex(env.topics(), ref, s -> s != null && s.getStatus() == TableStatus.found);
      assertThat(env.loader().stats().downloads.get()).isEqualTo(1);
      // another loader's eviction: the state gone from both topics, this loader's view unchanged
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      try (var producer =
          new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
        producer.send(new ProducerRecord<>(env.topics().tables(), TableKeys.state(ref), null));
        producer.send(
            new ProducerRecord<>(
                env.topics().index(), ref.toString().getBytes(StandardCharsets.UTF_8), null));
      }
      Thread.sleep(400); // past the coalescing window
      request(env.topics(), ref, RequestReason.missing);
      ModuleState again =
          awaitIndex(env.topics(), ref, s -> s != null && s.getStatus() == TableStatus.found);
      assertThat(again.getGeneration()).isNotEqualTo(first.getGeneration());
      assertThat(env.loader().stats().downloads.get()).isEqualTo(2);
      // a retry request for a found current table, or a missing one made before the table was
      // written (read late), is still not a reason to load
      request(env.topics(), ref, RequestReason.retry);
      request(env.topics(), ref, RequestReason.missing, again.getUpdatedAt().minusSeconds(1));
      Thread.sleep(1000);
      assertThat(env.loader().stats().downloads.get()).isEqualTo(2);
    }
  }

  /**
   * A loader of a new group (another application id, a new deployment) reads the requests that
   * made the tables load, from the start of the topic: it must not load them all again.
   */
  @Test
  void aNewLoaderGroupDoesNotReloadWhatTheRequestsAlreadyLoaded() throws Exception {
    ModuleRef ref = module(3, true);
    TopicNames topics;
    try (Env first = loader(settings(Duration.ofDays(7), Duration.ofMillis(100)))) {
      topics = first.topics();
      request(topics, ref, RequestReason.missing);
      awaitIndex(topics, ref, s -> s != null && s.getStatus() == TableStatus.found);
      assertThat(first.loader().stats().downloads.get()).isEqualTo(1);
    }
    try (Env second =
        loader(settings(Duration.ofDays(7), Duration.ofMillis(100)), topics, "another-group")) {
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (second.loader().stats().requests.get() < 1 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(second.loader().stats().requests.get())
          .as("the old request was read")
          .isEqualTo(1);
      Thread.sleep(500);
      assertThat(second.loader().stats().downloads.get()).isZero();
    }
  }

  /**
   * Several loaders (one per instance) share the requests: a module's use reaches only the loader
   * that reads its partition. The others' views of it are stale, and they evicted it after the
   * TTL while it was in use; only its owner judges it now.
   */
  @Test
  void onlyTheLoaderThatSeesAModulesUseMayEvictIt() throws Exception {
    int n = RUN.incrementAndGet();
    var topics =
        new TopicNames(
            "raw", "out", "dlq", "req" + n, "tables" + n, "index" + n, "up" + n, "missing");
    kafka.createTopics(2, topics.requests());
    kafka.createTopics(1, topics.uploads(), topics.tables(), topics.index());
    LoaderSettings settings = settings(Duration.ofMillis(3000), Duration.ofMillis(100));
    ModuleRef ref = module(4, true);
    try (Env a = loader(settings, topics, "shared" + n)) {
      request(topics, ref, RequestReason.missing);
      awaitIndex(topics, ref, s -> s != null && s.getStatus() == TableStatus.found);
      try (Env b = loader(settings, topics, "shared" + n)) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (a.loader().owns(ref) == b.loader().owns(ref) && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
        assertThat(a.loader().owns(ref))
            .as("one of the two reads its partition")
            .isNotEqualTo(b.loader().owns(ref));
        // in use for twice the TTL: touched every 300 ms
        long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
        while (System.nanoTime() < until) {
          request(topics, ref, RequestReason.used);
          Thread.sleep(300);
        }
        assertThat(latest(topics.index()).get(ref.toString())).as("still loaded").isNotNull();
        assertThat(a.loader().stats().evicted.get() + b.loader().stats().evicted.get()).isZero();
      }
    }
  }

  /**
   * An upload is keyed by whoever announces it, so it may be read by a loader that does not read
   * the module's requests: that loader hands it on, and only the module's own loader downloads
   * it. (Before, both loaded the module, each publishing a generation of its own.)
   */
  @Test
  void anUploadReadByAnotherLoaderIsHandedToTheModulesOwn() throws Exception {
    int n = RUN.incrementAndGet();
    var topics =
        new TopicNames(
            "raw", "out", "dlq", "req" + n, "tables" + n, "index" + n, "up" + n, "missing");
    kafka.createTopics(2, topics.requests(), topics.uploads());
    kafka.createTopics(1, topics.tables(), topics.index());
    LoaderSettings settings = settings(Duration.ofHours(1), Duration.ofMillis(100));
    ModuleRef ref = module(6, true);
    try (Env a = loader(settings, topics, "shared" + n);
        Env b = loader(settings, topics, "shared" + n)) {
      // both in the group, a partition each (the first to join held both for a while)
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while ((a.loader().ownedPartitions().size() != 1 || b.loader().ownedPartitions().size() != 1)
          && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(a.loader().ownedPartitions()).hasSize(1);
      assertThat(b.loader().ownedPartitions()).hasSize(1);
      assertThat(a.loader().owns(ref))
          .as("one of the two reads its partition")
          .isNotEqualTo(b.loader().owns(ref));
      SymbolLoader owner = a.loader().owns(ref) ? a.loader() : b.loader();
      SymbolLoader other = owner == a.loader() ? b.loader() : a.loader();
      // the same upload on both partitions of the uploads topic: each loader reads one
      for (int partition = 0; partition < 2; partition++) {
        upload(topics, ref, partition);
      }
      awaitIndex(topics, ref, s -> s != null && s.getStatus() == TableStatus.found);
      deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (other.stats().forwarded.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(other.stats().forwarded.get())
          .as("uploads the other loader handed on")
          .isEqualTo(1);
      assertThat(other.stats().downloads.get())
          .as("downloads by the loader that does not own it")
          .isZero();
      assertThat(owner.stats().downloads.get())
          .as("downloads by the module's own loader")
          .isPositive();
      assertThat(owner.stats().forwarded.get()).isZero();
    }
  }

  /** Whether the pages of {@code state}'s generation are on the tables topic (not tombstoned). */
  private static boolean pagesPresent(TopicNames topics, ModuleRef ref, ModuleState state)
      throws Exception {
    Map<String, byte[]> tables = latestBytes(topics.tables());
    return state.getPageKeys().stream()
        .allMatch(
            k ->
                tables.get(
                        new String(
                            TableKeys.page(ref, state.getGeneration(), k),
                            StandardCharsets.ISO_8859_1))
                    != null);
  }

  /**
   * A reload's new generation replaces the old one's pages a few seconds after its state, not at
   * once: a stream task reuses a found state it read for 200 ms, and pages deleted under it gave
   * frames of a found module without symbols. Closing the loader writes the deletions waiting.
   */
  @Test
  void aReplacedGenerationsPagesGoAfterItsStateAndOnClose() throws Exception {
    ModuleRef ref = module(5, true);
    try (Env env = loader(settings(Duration.ofDays(7), Duration.ofMillis(100)))) {
      request(env.topics(), ref, RequestReason.missing);
      ModuleState first =
          awaitIndex(env.topics(), ref, s -> s != null && s.getStatus() == TableStatus.found);
      upload(env.topics(), ref);
      ModuleState second =
          awaitIndex(
              env.topics(),
              ref,
              s ->
                  s != null
                      && s.getStatus() == TableStatus.found
                      && s.getGeneration() != first.getGeneration());
      assertThat(pagesPresent(env.topics(), ref, first))
          .as("old pages right after the new state")
          .isTrue();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (pagesPresent(env.topics(), ref, first) && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertThat(pagesPresent(env.topics(), ref, first))
          .as("deleted a few seconds later")
          .isFalse();
      assertThat(pagesPresent(env.topics(), ref, second)).isTrue();

      upload(env.topics(), ref);
      awaitIndex(
          env.topics(),
          ref,
          s ->
              s != null
                  && s.getStatus() == TableStatus.found
                  && s.getGeneration() != second.getGeneration());
      env.loader().close(); // before the delay: the deletion is written on the way out
      assertThat(pagesPresent(env.topics(), ref, second)).as("written on close").isFalse();
    }
  }
}
