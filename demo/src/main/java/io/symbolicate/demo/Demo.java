package io.symbolicate.demo;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.reprocess.ModuleReprocessing;
import io.symbolicate.app.runtime.SymbolicatorApp;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import io.symbolicate.testkit.events.SampleEvents;
import io.symbolicate.testkit.events.SampleSymbols;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The self-contained demo: an in-process KRaft broker and S3 server, the real stream app, sample
 * events of every platform plus hostile inputs, and what came out.
 */
public final class Demo {
  /** One input the demo sends, with a label for the summary. */
  public record Input(String label, byte[] value) {}

  /**
   * What came out; {@code reprocessed}: the outputs of the events reprocessed once the module
   * they missed had its symbols ({@code reprocessedExpected} of them were written back).
   */
  public record Result(
      List<Input> inputs,
      List<SymbolicatedEvent> events,
      List<DeadLetter> deadLetters,
      Duration elapsed,
      List<SymbolicatedEvent> reprocessed,
      long reprocessedExpected) {

    /** Every input came out once, and every reprocessed event again. */
    public boolean complete() {
      return events.size() + deadLetters.size() == inputs.size()
          && reprocessed.size() == reprocessedExpected;
    }
  }

  private Demo() {}

  public static List<Input> inputs() {
    List<Input> in = new ArrayList<>();
    in.add(
        new Input(
            "native event (Avro)",
            WireSerdes.crashEvent().encode(SampleEvents.nativeEvent("demo-native-1"))));
    in.add(
        new Input(
            "JavaScript event (Avro)",
            WireSerdes.crashEvent().encode(SampleEvents.jsEvent("demo-js-1"))));
    in.add(
        new Input(
            "JVM event (Avro)",
            WireSerdes.crashEvent().encode(SampleEvents.jvmEvent("demo-jvm-1"))));
    in.add(
        new Input(
            "native event (JSON)",
            SampleEvents.nativeEventJson("demo-native-json").getBytes(StandardCharsets.UTF_8)));
    in.add(new Input("random bytes", SampleEvents.undecodableBytes()));
    in.add(new Input("truncated JSON", SampleEvents.invalidJson()));
    in.add(new Input("JSON without event_id", SampleEvents.missingEventIdJson()));
    in.add(new Input("unknown platform", SampleEvents.unknownPlatformJson("demo-cobol")));
    in.add(
        new Input(
            "event with 50,000 frames",
            WireSerdes.crashEvent().encode(SampleEvents.hugeEvent("demo-huge", 50_000))));
    return in;
  }

  public static Result run(PrintStream progress, Duration timeout) throws Exception {
    long t0 = System.nanoTime();
    Path stateDir = Files.createTempDirectory("symbolicator-demo-state");
    try {
      progress.println("▸ starting an in-process Kafka broker (KRaft, loopback)…");
      try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
        progress.println("  broker ready at " + kafka.bootstrapServers());
        progress.println("▸ starting an in-process S3-compatible server…");
        try (EmbeddedS3 s3 = EmbeddedS3.startInMemory();
            var client = s3.client()) {
          client.createBucket(b -> b.bucket("symbols"));
          progress.println("  S3 endpoint " + s3.endpoint() + ", bucket 'symbols'");
          for (SampleSymbols.Upload u : SampleSymbols.uploads()) {
            client.putObject(
                b -> b.bucket("symbols").key(u.key()), RequestBody.fromBytes(u.body()));
            progress.println(
                "  uploaded s3://symbols/" + u.key() + " (" + u.body().length + " bytes)");
          }
          // the loader takes credentials from the default AWS chain, as in production
          System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
          System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);

          AppConfig cfg =
              AppConfig.defaults()
                  .set(ConfigKeys.SYMBOLS_S3_BUCKET, "symbols")
                  .set(ConfigKeys.SYMBOLS_S3_ENDPOINT, s3.endpoint().toString())
                  .set(ConfigKeys.SYMBOLS_S3_PATH_STYLE, "true")
                  .set(ConfigKeys.BOOTSTRAP_SERVERS, kafka.bootstrapServers())
                  .set(ConfigKeys.APPLICATION_ID, "symbolicator-demo")
                  .set(ConfigKeys.STATE_DIR, stateDir.toString())
                  .set(ConfigKeys.TOPICS_PARTITIONS, "1")
                  .set("streams.commit.interval.ms", "100");
          progress.println("▸ starting the symbolication stream app (exactly-once v2)…");
          try (SymbolicatorApp app = SymbolicatorApp.start(cfg)) {
            if (!app.awaitRunning(timeout)) {
              throw new IllegalStateException("the stream app did not start within " + timeout);
            }
            List<Input> inputs = inputs();
            progress.println(
                "▸ sending "
                    + inputs.size()
                    + " records to "
                    + cfg.get(ConfigKeys.TOPIC_RAW)
                    + "…");
            produce(kafka.bootstrapServers(), cfg.get(ConfigKeys.TOPIC_RAW), inputs);
            Result first = collect(kafka.bootstrapServers(), cfg, inputs, timeout, t0);
            return reprocessLateModule(
                kafka.bootstrapServers(), client, cfg, first, progress, timeout, t0);
          }
        }
      }
    } finally {
      deleteRecursively(stateDir);
    }
  }

  /**
   * Batch reprocessing: the symbols of a module the native event missed arrive late; the demo
   * uploads them, announces them on symbols.uploads, waits for the loader, and reprocesses exactly
   * the events that missed the module (what {@code ./symbolicator reprocess} does).
   */
  private static Result reprocessLateModule(
      String bootstrap,
      S3Client client,
      AppConfig cfg,
      Result first,
      PrintStream progress,
      Duration timeout,
      long t0)
      throws Exception {
    SampleSymbols.Upload late = SampleSymbols.lateUpload();
    progress.println(
        "▸ libc.so.6's symbols arrive late: uploading s3://symbols/"
            + late.key()
            + ", announcing it on "
            + cfg.get(ConfigKeys.TOPIC_UPLOADS)
            + "…");
    client.putObject(b -> b.bucket("symbols").key(late.key()), RequestBody.fromBytes(late.body()));
    ModuleReprocessing.Selection sel =
        ModuleReprocessing.Selection.of(
            SampleSymbols.LATE_MODULE, ModuleReprocessing.Selection.MENDABLE, null, null);
    ModuleRef ref = ModuleRef.parse("global|N|" + sel.module());
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      producer
          .send(
              new ProducerRecord<>(
                  cfg.get(ConfigKeys.TOPIC_UPLOADS),
                  WireSerdes.symbolRequest()
                      .encode(
                          SymbolRequest.newBuilder()
                              .setScope(ref.scope())
                              .setPlatform(ref.platform())
                              .setModuleKey(ref.key())
                              .setReason(RequestReason.upload)
                              .setRequestedAt(Instant.now())
                              .build())))
          .get();
    }
    ModuleReprocessing reprocessing = new ModuleReprocessing(cfg, progress::println);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!reprocessing.loaded(sel) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    progress.println(
        "▸ reprocessing the events that missed it (./symbolicator reprocess --module '"
            + SampleSymbols.LATE_MODULE
            + "')…");
    ModuleReprocessing.Result r = reprocessing.run(sel, false);
    List<SymbolicatedEvent> again = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        reader(bootstrap, "symbolicator-demo-reprocessed-reader")) {
      consumer.subscribe(List.of(cfg.get(ConfigKeys.TOPIC_SYMBOLICATED)));
      while (again.size() < r.written() && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(200))) {
          SymbolicatedEvent e = WireSerdes.symbolicatedEvent().decode(rec.value());
          if (e.getReprocessed()) {
            again.add(e);
          }
        }
      }
    }
    return new Result(
        first.inputs(),
        first.events(),
        first.deadLetters(),
        Duration.ofNanos(System.nanoTime() - t0),
        again,
        r.written());
  }

  private static void produce(String bootstrap, String topic, List<Input> inputs) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (Input in : inputs) {
        producer
            .send(
                new ProducerRecord<>(
                    topic, in.label().getBytes(StandardCharsets.UTF_8), in.value()))
            .get();
      }
    }
  }

  private static Result collect(
      String bootstrap, AppConfig cfg, List<Input> inputs, Duration timeout, long t0) {
    List<SymbolicatedEvent> events = new ArrayList<>();
    List<DeadLetter> dead = new ArrayList<>();
    var eventSerde = WireSerdes.symbolicatedEvent();
    var deadSerde = WireSerdes.deadLetter();
    try (KafkaConsumer<byte[], byte[]> consumer = reader(bootstrap, "symbolicator-demo-reader")) {
      consumer.subscribe(
          List.of(cfg.get(ConfigKeys.TOPIC_SYMBOLICATED), cfg.get(ConfigKeys.TOPIC_DLQ)));
      long deadline = System.nanoTime() + timeout.toNanos();
      while (events.size() + dead.size() < inputs.size() && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.topic().equals(cfg.get(ConfigKeys.TOPIC_DLQ))) {
            dead.add(deadSerde.deserializer().deserialize(r.topic(), r.value()));
          } else {
            events.add(eventSerde.deserializer().deserialize(r.topic(), r.value()));
          }
        }
      }
    }
    return new Result(inputs, events, dead, Duration.ofNanos(System.nanoTime() - t0), List.of(), 0);
  }

  /** A consumer of committed outputs from the start, in a group of its own. */
  private static KafkaConsumer<byte[], byte[]> reader(String bootstrap, String group) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    return new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** The raw event a dead letter carried, decoded if it is one (for display). */
  static CrashEvent tryDecode(byte[] bytes) {
    try {
      return WireSerdes.crashEvent().decode(bytes);
    } catch (Exception e) {
      return null;
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException | UncheckedIOException e) {
      // best effort: a temp directory
    }
  }
}
