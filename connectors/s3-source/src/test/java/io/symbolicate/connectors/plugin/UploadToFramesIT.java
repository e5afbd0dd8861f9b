package io.symbolicate.connectors.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.SymbolicatorApp;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.EmbeddedS3;
import io.symbolicate.testkit.events.SampleEvents;
import io.symbolicate.testkit.events.SampleSymbols;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * End to end, as deployed: a Breakpad .sym copied into the bucket is announced on symbols.uploads
 * by the S3 connector (loaded from the packaged archive by a real Connect worker), loaded by the
 * app's own loader (embedded in `run`, as {@link SymbolicatorApp} wires it), and the next native
 * event naming that module comes out of the topology with symbolicated frames, all on the real
 * broker. Before the copy, the same event comes out with the module missing, and the loader
 * would keep that answer for an hour (cache.missing.retry.ms): only the announcement replaces it.
 */
@Tag(PackagedPlugin.TAG)
class UploadToFramesIT {
  static final String BUCKET = "symbols";
  static final String CONNECTOR = "s3-symbols";
  static final String APP_MODULE = "crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";
  static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void anObjectCopiedIntoTheBucketComesOutAsSymbolicatedFrames() throws Exception {
    long t0 = System.nanoTime();
    Path plugins = PackagedPlugin.unpack(dir.resolve("plugins"));
    // in memory: a PUT is listed at once and whole, as on S3. s3proxy's directory store writes a
    // PUT to "<key>-<uuid>" beside the key and lists that file too; an incremental listing that
    // sees it moves its offset past the key (which the 5 s reconciliation then finds)
    EmbeddedS3 s3server = EmbeddedS3.startInMemory();
    S3Client s3 = s3server.client();
    s3.createBucket(b -> b.bucket(BUCKET));
    // the app's S3 source takes the AWS default chain, as in a pod with AWS_* variables
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    EmbeddedConnectCluster connect = PackagedPlugin.connect("upload-to-frames-it", plugins);
    String bootstrap = connect.kafka().bootstrapServers();
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", bootstrap)
            .set("application.id", "e2e")
            .set("state.dir", dir.resolve("state").toString())
            .set("topics.partitions", "2")
            .set("streams.commit.interval.ms", "100")
            .set("symbols.s3.bucket", BUCKET)
            .set("symbols.s3.endpoint", s3server.endpoint().toString())
            .set("symbols.s3.path-style", "true")
            .set("cache.missing.retry.ms", "3600000")
            // the converters' JIT warm-up (tens of MB converted at start) only costs CPU in a test
            .set("loader.warmup", "false");
    PackagedPlugin.lap("UploadToFramesIT", "archive unpacked, S3 + Connect cluster started", t0);
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg);
        Output out = new Output(bootstrap, cfg)) {
      long t = System.nanoTime();
      Map<String, String> c =
          PackagedPlugin.connectorConfig(
              BUCKET, s3server.endpoint().toString(), EmbeddedS3.ACCESS_KEY, EmbeddedS3.SECRET_KEY);
      c.put("topic", cfg.get("topic.uploads"));
      connect.configureConnector(CONNECTOR, c);
      connect
          .assertions()
          .assertConnectorAndExactlyNumTasksAreRunning(CONNECTOR, 1, "connector running");

      send(bootstrap, cfg, SampleEvents.nativeEvent("before"));
      SymbolicatedEvent before = out.await("before");
      assertThat(before.getModules().get(0).getStatus())
          .as("no symbols yet")
          .isEqualTo(ModuleStatus.missing);
      PackagedPlugin.lap(
          "UploadToFramesIT", "app running; event before the upload out (missing)", t);

      t = System.nanoTime();
      long loaded = app.loader().stats().found.get();
      SampleSymbols.Upload sym =
          SampleSymbols.uploads().stream()
              .filter(u -> u.key().endsWith(".sym"))
              .findFirst()
              .orElseThrow();
      assertThat(sym.key()).startsWith(APP_MODULE + "/");
      s3.putObject(
          b -> b.bucket(BUCKET).key(sym.key()),
          RequestBody.fromBytes(sym.body())); // `aws s3 cp crashy.sym ...`
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (app.loader().stats().found.get() == loaded && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      if (app.loader().stats().found.get() == loaded) {
        PackagedPlugin.dumpThreads("task-thread-");
        System.out.println(
            "UploadToFramesIT: bucket holds " + s3.listObjectsV2(b -> b.bucket(BUCKET)).contents());
      }
      assertThat(app.loader().stats().found.get())
          .as("the loader loaded the announced file")
          .isGreaterThan(loaded);
      PackagedPlugin.lap("UploadToFramesIT", "copied, announced, loaded", t);

      t = System.nanoTime();
      send(bootstrap, cfg, SampleEvents.nativeEvent("after"));
      SymbolicatedEvent after = out.await("after");
      assertThat(after.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.found);
      List<SymbolicatedFrame> frames = after.getStacks().get(0).getFrames();
      assertThat(frames.get(0).getFunction()).isEqualTo("main");
      assertThat(frames.get(0).getFile()).isEqualTo("src/main.c");
      assertThat(frames.get(0).getLine()).isEqualTo(12);
      assertThat(after.getMissingSymbols()).doesNotContain(APP_MODULE);
      PackagedPlugin.lap("UploadToFramesIT", "event after the upload out symbolicated", t);
    } finally {
      long t = System.nanoTime();
      connect.stop();
      s3.close();
      s3server.close();
      PackagedPlugin.lap("UploadToFramesIT", "stopped", t);
      PackagedPlugin.lap("UploadToFramesIT", "whole test", t0);
    }
  }

  static void send(String bootstrap, AppConfig cfg, CrashEvent e) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (var producer =
        new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(cfg.get("topic.raw"), WireSerdes.crashEvent().encode(e)));
    }
  }

  /** Reads the symbolicated output (committed records only: the app runs exactly-once). */
  static final class Output implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, SymbolicatedEvent> events = new HashMap<>();
    private final String topic;

    Output(String bootstrap, AppConfig cfg) {
      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      c.put(ConsumerConfig.GROUP_ID_CONFIG, "e2e-reader");
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
      topic = cfg.get("topic.symbolicated");
      consumer.subscribe(List.of(topic));
    }

    SymbolicatedEvent await(String eventId) {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (!events.containsKey(eventId) && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          SymbolicatedEvent e =
              WireSerdes.symbolicatedEvent().deserializer().deserialize(topic, r.value());
          events.put(e.getEvent().getEventId(), e);
        }
      }
      assertThat(events).as("output for " + eventId).containsKey(eventId);
      return events.get(eventId);
    }

    @Override
    public void close() {
      consumer.close();
    }
  }
}
