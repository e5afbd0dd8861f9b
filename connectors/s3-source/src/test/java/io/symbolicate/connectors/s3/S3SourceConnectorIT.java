package io.symbolicate.connectors.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.testkit.EmbeddedS3;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.converters.ByteArrayConverter;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The connector in a real Connect worker (Kafka's embedded Connect cluster, one broker, one
 * worker) against the in-process S3 server on a directory: announces what is there, resumes
 * after a stop with what was added meanwhile, finds a late key by reconciliation, and rides out
 * an S3 outage. One test, one cluster: the cluster's start is most of the time.
 */
class S3SourceConnectorIT {
  static final String TOPIC = "symbols.uploads";
  static final String BUCKET = "symbols";
  static final String CONNECTOR = "s3-symbols";
  static final String UUID = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
  static final long WAIT_MS = 30_000;

  @TempDir Path dir;

  @Test
  void announcesResumesReconcilesAndRidesOutAnOutage() throws Exception {
    long t0 = System.nanoTime();
    EmbeddedS3 s3server = EmbeddedS3.startOnDirectory(dir);
    int port = s3server.port();
    S3Client s3 = s3server.client();
    s3.createBucket(b -> b.bucket(BUCKET));
    put(s3, "libA.so/0A/libA.so.sym");
    put(s3, "scopes/acme/jvm/proguard/" + UUID + "/mapping.txt");
    put(s3, "libnotes.txt"); // no known layout: skipped

    Map<String, String> worker = new HashMap<>();
    worker.put("offset.flush.interval.ms", "500");
    // plugins found through META-INF/services only: the reflective scan of this test classpath took
    // 27 s
    worker.put("plugin.discovery", "service_load");
    EmbeddedConnectCluster connect =
        (EmbeddedConnectCluster)
            new EmbeddedConnectCluster.Builder()
                .name("s3-source-it")
                .numWorkers(1)
                .numBrokers(1)
                .workerProps(worker)
                .build();
    connect.start();
    try {
      connect.kafka().createTopic(TOPIC, 1);
      lap("S3 + Connect cluster started", t0);

      long t = System.nanoTime();
      connect.configureConnector(CONNECTOR, connectorConfig(port));
      connect
          .assertions()
          .assertConnectorAndExactlyNumTasksAreRunning(CONNECTOR, 2, "two tasks, one per prefix");
      assertThat(keysOf(consume(connect, 2)))
          .containsExactlyInAnyOrder(
              "global|" + tag(TableKind.NATIVE) + "|libA.so/0A",
              "acme|" + tag(TableKind.JVM) + "|" + UUID);
      lap("existing objects announced", t);

      t = System.nanoTime();
      connect.stopConnector(CONNECTOR);
      connect.assertions().assertConnectorIsStopped(CONNECTOR, "stopped");
      put(s3, "libB.so/0B/libB.so.sym");
      put(s3, "scopes/acme/libD.so/0D/libD.so.sym");
      connect.resumeConnector(CONNECTOR);
      connect.assertions().assertConnectorAndExactlyNumTasksAreRunning(CONNECTOR, 2, "resumed");
      assertThat(keysOf(consume(connect, 4))).contains("global|N|libB.so/0B", "acme|N|libD.so/0D");
      lap("objects added while stopped announced after resuming", t);

      t = System.nanoTime();
      put(
          s3,
          "libA.so/0C/libA.so.sym"); // sorts before the offset (libB...): only a full listing sees
      // it
      assertThat(keysOf(consume(connect, 5))).contains("global|N|libA.so/0C");
      lap("late key found by the reconciliation", t);

      t = System.nanoTime();
      s3server.close();
      Thread.sleep(2_000); // a few failed listings
      assertTasksRunning(connect);
      s3server = EmbeddedS3.startOnDirectory(dir, port);
      put(s3, "libC.so/0C/libC.so.sym");
      assertThat(keysOf(consume(connect, 6))).contains("global|N|libC.so/0C");
      assertTasksRunning(connect);
      lap("S3 outage ridden out", t);

      List<ConsumerRecord<byte[], byte[]>> all = consume(connect, 6);
      for (ConsumerRecord<byte[], byte[]> r : all) {
        SymbolRequest req = WireSerdes.symbolRequest().decode(r.value());
        assertThat(req.getReason()).isEqualTo(RequestReason.upload);
        ModuleRef ref =
            new ModuleRef(req.getScope(), ModuleRef.kindOf(req.getPlatform()), req.getModuleKey());
        assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(ref.toString());
        assertThat(r.headers().lastHeader("s3.key")).isNotNull();
      }
      assertThat(keysOf(all))
          .as("an unchanged object is not announced again after the restart")
          .containsOnlyOnce("global|N|libA.so/0A");
    } finally {
      long t = System.nanoTime();
      connect.stop();
      s3.close();
      s3server.close();
      lap("stopped", t);
      lap("whole test", t0);
    }
  }

  static Map<String, String> connectorConfig(int port) {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", S3SourceConnector.class.getName());
    c.put("tasks.max", "2");
    c.put("key.converter", ByteArrayConverter.class.getName());
    c.put("value.converter", ByteArrayConverter.class.getName());
    c.put(S3SourceConfig.BUCKET, BUCKET);
    c.put(S3SourceConfig.PREFIXES, "lib,scopes/");
    c.put(S3SourceConfig.ENDPOINT, "http://127.0.0.1:" + port);
    c.put(S3SourceConfig.PATH_STYLE, "true");
    c.put(S3SourceConfig.ACCESS_KEY, EmbeddedS3.ACCESS_KEY);
    c.put(S3SourceConfig.SECRET_KEY, EmbeddedS3.SECRET_KEY);
    c.put(S3SourceConfig.POLL_INTERVAL_MS, "200");
    c.put(S3SourceConfig.RECONCILE_INTERVAL_MS, "2000");
    // nothing written before the previous reconciliation began comes again (see the last assertion)
    c.put(S3SourceConfig.RECONCILE_LOOKBACK_MS, "0");
    c.put(S3SourceConfig.RETRY_BACKOFF_MAX_MS, "500");
    return c;
  }

  static void put(S3Client s3, String key) {
    s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString("MODULE " + key + "\n"));
  }

  static char tag(TableKind kind) {
    return new ModuleRef("global", kind, "k").toString().charAt("global|".length());
  }

  static List<ConsumerRecord<byte[], byte[]>> consume(EmbeddedConnectCluster connect, int atLeast) {
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    connect.kafka().consume(atLeast, WAIT_MS, TOPIC).forEach(out::add);
    return out;
  }

  static List<String> keysOf(List<ConsumerRecord<byte[], byte[]>> records) {
    return records.stream().map(r -> new String(r.key(), StandardCharsets.UTF_8)).toList();
  }

  static void assertTasksRunning(EmbeddedConnectCluster connect) {
    ConnectorStateInfo s = connect.connectorStatus(CONNECTOR);
    assertThat(s.tasks())
        .hasSize(2)
        .allSatisfy(task -> assertThat(task.state()).isEqualTo("RUNNING"));
  }

  static void lap(String what, long since) {
    System.out.printf(
        "S3SourceConnectorIT timing: %-55s %6d ms%n",
        what, (System.nanoTime() - since) / 1_000_000);
  }
}
