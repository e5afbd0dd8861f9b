package io.symbolicate.api.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.symbolicate.api.ApiSymbolicator;
import io.symbolicate.api.DetachedSymbolication;
import io.symbolicate.api.Json;
import io.symbolicate.api.nativecode.MozillaV5Handler;
import io.symbolicate.app.runtime.SymbolEngines;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.topology.store.GlobalTablesQuery;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API in {@code run} with the broker unreachable: asking for a module never blocks the HTTP
 * request (a producer's send blocks while it has no metadata), which is answered at its deadline.
 */
class KafkaApiSymbolsTest {
  @TempDir Path stateDir;

  /** A local port nobody listens on. */
  private static String unreachable() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return "127.0.0.1:" + s.getLocalPort();
    }
  }

  /** The streams app, never started: its store is not queryable, so every module is unknown. */
  private KafkaStreams streams(String bootstrap) {
    StreamsBuilder b = new StreamsBuilder();
    b.stream("in").to("out");
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "api-symbols-test");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
    return new KafkaStreams(b.build(), p);
  }

  /** A real producer; a send blocks up to a minute on the missing metadata (the client's default). */
  private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static ModuleRef ref(int i) {
    return new ModuleRef(
        DebugIdentifiers.GLOBAL_SCOPE,
        TableKind.NATIVE,
        DebugIdentifiers.nativeModule("m" + i + ".pdb", String.format("%032X1", i)).key());
  }

  @Test
  void aRequestIsAnsweredAtItsDeadlineWhileTheBrokerIsUnreachable() throws Exception {
    String bootstrap = unreachable();
    MozillaV5Handler v5 = new MozillaV5Handler(DetachedSymbolication.withMaxFrames(1000));
    CrashEvent event =
        v5.events(
                v5.parse(
                    Json.MAPPER.readTree(
                        """
        {"memoryMap": [["xul.pdb", "44E4EC8C2F41492B9369D6B9A059577C2"]], "stacks": [[[0, 4096]]]}""")),
                DebugIdentifiers.GLOBAL_SCOPE)
            .get(0);
    long closeStarted;
    try (KafkaStreams streams = streams(bootstrap);
        KafkaApiSymbols symbols =
            new KafkaApiSymbols(
                new GlobalTablesQuery(streams),
                new PageCache(1 << 20),
                producer(bootstrap),
                "symbols.requests",
                Duration.ofSeconds(5),
                Duration.ofHours(1))) {
      ApiSymbolicator api = new ApiSymbolicator(SymbolEngines.steps(), symbols);
      long started = System.currentTimeMillis();
      ApiSymbolicator.Result r =
          assertTimeoutPreemptively(
              Duration.ofSeconds(20), () -> api.symbolicate(List.of(event), started + 1000, 1000));
      long took = System.currentTimeMillis() - started;
      assertThat(took)
          .as("answered at its 1 s deadline, not after the producer's 60 s")
          .isBetween(1000L, 3000L);
      assertThat(r.events().get(0).getModules())
          .extracting(ModuleResult::getStatus)
          .containsExactly(ModuleStatus.fetch_failed);
      closeStarted = System.currentTimeMillis();
    }
    assertThat(System.currentTimeMillis() - closeStarted)
        .as("closing does not wait for a blocked send")
        .isLessThan(10_000L);
  }

  @Test
  void requestsBeyondTheOutboxAreDroppedNotWaitedFor() throws Exception {
    String bootstrap = unreachable();
    try (KafkaStreams streams = streams(bootstrap);
        KafkaApiSymbols symbols =
            new KafkaApiSymbols(
                new GlobalTablesQuery(streams),
                new PageCache(1 << 20),
                producer(bootstrap),
                "symbols.requests",
                Duration.ofSeconds(5),
                Duration.ofHours(1))) {
      int n = KafkaApiSymbols.OUTBOX + 100;
      long started = System.currentTimeMillis();
      assertTimeoutPreemptively(
          Duration.ofSeconds(20),
          () -> {
            for (int i = 0; i < n; i++) {
              symbols.request(ref(i), RequestReason.missing);
            }
          });
      assertThat(System.currentTimeMillis() - started).isLessThan(2_000L);
      // one is being sent (blocked), OUTBOX wait: the rest are dropped, to be asked for again
      assertThat(symbols.dropped()).isBetween(99L, 100L);
    }
  }
}
