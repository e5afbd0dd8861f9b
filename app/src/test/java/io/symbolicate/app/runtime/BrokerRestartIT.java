package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.ChildProcessKafka;
import io.symbolicate.testkit.EmbeddedS3;
import io.symbolicate.testkit.events.SampleEvents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The broker (a real KRaft broker in a child JVM) is stopped (SIGTERM) or killed (SIGKILL)
 * mid-stream while events keep arriving, and started again on the same port and data: with
 * exactly-once v2, every input event comes out exactly once, symbolicated, and nothing goes to
 * the dead-letter topic.
 */
class BrokerRestartIT {
  private static final String BUCKET = "symbols";
  private static final int WARMUP = 100;
  private static final int MAX_PACED = 6000;
  private static final int AFTER = 2000;
  private int total;

  @TempDir Path stateDir;
  @TempDir Path s3Dir;

  /** SIGTERM: a controlled shutdown; SIGKILL: the broker dies with transactions open. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"SIGTERM", "SIGKILL"})
  void aBrokerRestartMidStreamLosesAndDuplicatesNothing(String signal) throws Exception {
    try (ChildProcessKafka kafka = ChildProcessKafka.start();
        EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(s3Dir)) {
      try (var client = s3.client()) {
        client.createBucket(b -> b.bucket(BUCKET));
        byte[] sym = SymbolStoreIT.sampleSym();
        client.putObject(
            b -> b.bucket(BUCKET).key(SymbolStoreIT.APP_KEY), RequestBody.fromBytes(sym));
        client.putObject(
            b -> b.bucket(BUCKET).key("libc.so.6/A1B2C3D4E5F60718293A4B5C6D7E8F900/libc.so.6.sym"),
            RequestBody.fromBytes(sym));
      }
      System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
      System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
      AppConfig cfg =
          AppConfig.defaults()
              .set("bootstrap.servers", kafka.bootstrapServers())
              .set("application.id", "broker-restart-" + signal.toLowerCase(Locale.ROOT))
              .set("state.dir", stateDir.toString())
              .set("topics.partitions", "2")
              .set("streams.commit.interval.ms", "100")
              .set("symbols.s3.bucket", BUCKET)
              .set("symbols.s3.endpoint", s3.endpoint().toString())
              .set("symbols.s3.path-style", "true");
      assertThat(cfg.get("processing.guarantee")).isEqualTo("exactly_once_v2");

      log("broker and S3 up");
      Map<String, Integer> seen = new ConcurrentHashMap<>();
      List<Future<RecordMetadata>> acks = new CopyOnWriteArrayList<>();
      SymbolicatorApp app = SymbolicatorApp.start(cfg);
      KafkaProducer<byte[], byte[]> producer = producer(kafka.bootstrapServers());
      KafkaConsumer<String, byte[]> reader = reader(kafka.bootstrapServers());
      try {
        send(producer, acks, 0, WARMUP);
        await(
            reader,
            seen,
            () -> seen.size() >= WARMUP,
            Duration.ofSeconds(90),
            kafka,
            "warm-up output");
        log("warm-up events out");

        // events keep arriving at a steady pace (up to 500/s) until the broker is back: the
        // producer
        // buffers and retries through the outage
        AtomicInteger sent = new AtomicInteger(WARMUP);
        AtomicInteger attempted = new AtomicInteger(WARMUP);
        AtomicBoolean restarted = new AtomicBoolean();
        Thread paced =
            new Thread(
                () -> {
                  try {
                    while (!restarted.get() && sent.get() < MAX_PACED) {
                      // counted before the call: while the broker is down, send() waits for
                      // metadata
                      attempted.set(sent.get() + 10);
                      send(producer, acks, sent.get(), sent.get() + 10);
                      sent.addAndGet(10);
                      Thread.sleep(20);
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "paced-producer");
        paced.start();
        try {
          await(
              reader,
              seen,
              () -> seen.size() >= WARMUP + 100,
              Duration.ofSeconds(60),
              kafka,
              "output before the stop");
          int outBeforeStop = seen.size();
          boolean kill = signal.equals("SIGKILL");
          int exit = kill ? kafka.kill() : kafka.stop(Duration.ofSeconds(30));
          int sentAtStop = sent.get();
          log(
              "broker stopped (exit "
                  + exit
                  + ") after "
                  + outBeforeStop
                  + " outputs, "
                  + sentAtStop
                  + " sent");
          assertThat(exit).as("the broker ended by " + signal).isEqualTo(kill ? 137 : 143);
          // the fault itself: the cluster is gone for a while, events keep coming
          Thread.sleep(3000);
          assertThat(attempted.get())
              .as("events were being produced during the outage")
              .isGreaterThan(sentAtStop);
          kafka.restart();
          log("broker restarted; " + sent.get() + " sent, " + seen.size() + " outputs");
          assertThat(outBeforeStop).as("stopped mid-stream").isLessThan(sent.get());
        } finally {
          restarted.set(true);
          paced.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(paced.isAlive()).isFalse();
        int total = sent.get() + AFTER;
        send(producer, acks, sent.get(), total);
        producer.flush();
        for (Future<RecordMetadata> f : acks) {
          f.get(60, TimeUnit.SECONDS); // every input event was accepted by the broker
        }
        assertThat(acks).hasSize(total);
        this.total = total;
        await(
            reader, seen, () -> seen.size() >= total, Duration.ofSeconds(120), kafka, "all events");
        log("all " + total + " events out");
        assertThat(app.failed()).isFalse();
      } finally {
        // bounded: after a failure the broker may be down, and a default close would wait forever
        reader.close(Duration.ofSeconds(5));
        producer.close(Duration.ofSeconds(5));
        app.close(Duration.ofSeconds(20));
      }

      log("app closed");
      // the app is closed, no transaction is open: read every committed record once more
      Map<String, Integer> counts = new HashMap<>();
      List<SymbolicatedEvent> outputs = new ArrayList<>();
      readAll(
          kafka.bootstrapServers(),
          "crash-events.symbolicated",
          r -> {
            counts.merge(new String(r.key(), StandardCharsets.UTF_8), 1, Integer::sum);
            outputs.add(
                WireSerdes.symbolicatedEvent().deserializer().deserialize(r.topic(), r.value()));
          });
      // the input as the broker holds it: the test's idempotent producer may itself write a
      // record twice when the broker dies between the write and its answer (the client bumps its
      // epoch and re-sends the in-flight batch); exactly-once is the stream's promise about the
      // input topic's records, so each key must come out as often as it went in
      Map<String, Integer> inputs = new HashMap<>();
      readAll(
          kafka.bootstrapServers(),
          "crash-events.raw",
          r -> inputs.merge(new String(r.key(), StandardCharsets.UTF_8), 1, Integer::sum));
      long inputDuplicates = inputs.values().stream().filter(n -> n > 1).count();
      long outputDuplicates = counts.values().stream().filter(n -> n > 1).count();
      log(
          inputs.size()
              + " keys in, "
              + counts.size()
              + " out; "
              + inputDuplicates
              + " keys written twice to the input by the producer, "
              + outputDuplicates
              + " keys out more than once");
      for (int i = 0; i < total; i++) {
        assertThat(inputs).containsKey("e-" + i);
      }
      assertThat(inputs).hasSize(total);
      assertThat(counts).as("each key out as often as the input holds it").isEqualTo(inputs);
      assertThat(outputs).allSatisfy(BrokerRestartIT::assertSymbolicated);
      List<byte[]> dead = new ArrayList<>();
      readAll(kafka.bootstrapServers(), "crash-events.dlq", r -> dead.add(r.value()));
      assertThat(dead).as("nothing dead-lettered").isEmpty();
      List<byte[]> missing = new ArrayList<>();
      readAll(kafka.bootstrapServers(), "symbols.missing", r -> missing.add(r.value()));
      assertThat(missing).as("no module reported missing").isEmpty();
    }
  }

  private static void log(String s) {
    System.err.println("BrokerRestartIT " + Instant.now() + ": " + s);
  }

  private static void assertSymbolicated(SymbolicatedEvent e) {
    assertThat(e.getModules())
        .extracting(m -> m.getStatus())
        .containsExactly(ModuleStatus.found, ModuleStatus.found);
    List<SymbolicatedFrame> f = e.getStacks().get(0).getFrames();
    assertThat(f.get(0).getStatus()).isEqualTo(FrameStatus.symbolicated);
    assertThat(f.get(0).getFunction()).isEqualTo("main");
    assertThat(f.get(0).getFile()).isEqualTo("src/main.c");
    assertThat(f.get(0).getLine()).isEqualTo(12);
    assertThat(f.get(2).getFunction()).isEqualTo("crash_handler(int)");
    assertThat(f.get(2).getLine()).isEqualTo(31);
  }

  private static void send(
      KafkaProducer<byte[], byte[]> producer, List<Future<RecordMetadata>> acks, int from, int to) {
    for (int i = from; i < to; i++) {
      String id = "e-" + i;
      acks.add(
          producer.send(
              new ProducerRecord<>(
                  "crash-events.raw",
                  id.getBytes(StandardCharsets.UTF_8),
                  WireSerdes.crashEvent().encode(SampleEvents.nativeEvent(id)))));
    }
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
        true); // retries through the outage add no duplicates
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
    p.put(
        ProducerConfig.MAX_BLOCK_MS_CONFIG,
        120_000); // send() waits for metadata while the broker is down
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static KafkaConsumer<String, byte[]> reader(String bootstrap) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.GROUP_ID_CONFIG, "broker-restart-reader");
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
    consumer.subscribe(List.of("crash-events.symbolicated"));
    return consumer;
  }

  private static void await(
      KafkaConsumer<String, byte[]> consumer,
      Map<String, Integer> seen,
      BooleanSupplier done,
      Duration timeout,
      ChildProcessKafka kafka,
      String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!done.getAsBoolean() && System.nanoTime() < deadline) {
      consumer.poll(Duration.ofMillis(100)).forEach(r -> seen.merge(r.key(), 1, Integer::sum));
    }
    assertThat(done.getAsBoolean())
        .as(
            what
                + " within "
                + timeout.toSeconds()
                + " s (seen "
                + seen.size()
                + "); broker log:\n"
                + kafka.logTail(20))
        .isTrue();
  }

  /** Reads a topic from the beginning up to its end (last stable offset), read_committed. */
  private static void readAll(
      String bootstrap, String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (var consumer =
        new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts =
          consumer.partitionsFor(topic).stream()
              .map(pi -> new TopicPartition(topic, pi.partition()))
              .toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        assertThat(System.nanoTime())
            .as("read " + topic + " to its end in time")
            .isLessThan(deadline);
        consumer.poll(Duration.ofMillis(200)).forEach(each);
      }
    }
  }
}
