package io.symbolicate.connectors.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.EmbeddedS3;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The packaged plugin archive, unpacked into a worker's plugin.path, is what a Connect worker
 * loads and runs: the connector is listed, its task runs, and an object put into the bucket is
 * announced. The connector's classes are not on this test's classpath, so nothing else could
 * have supplied them.
 */
@Tag(PackagedPlugin.TAG)
class PluginPathIT {
  static final String TOPIC = "symbols.uploads";
  static final String BUCKET = "symbols";
  static final String CONNECTOR = "s3-symbols-from-archive";

  @TempDir Path dir;

  @Test
  void theArchiveLoadsThroughPluginPathAndTheConnectorRunsFromIt() throws Exception {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> Class.forName(PackagedPlugin.CONNECTOR_CLASS))
        .as("the connector must come from the archive only")
        .isInstanceOf(ClassNotFoundException.class);

    Path plugins = PackagedPlugin.unpack(dir.resolve("plugins"));
    List<String> jars;
    try (Stream<Path> files = Files.walk(plugins)) {
      jars =
          files
              .filter(f -> f.toString().endsWith(".jar"))
              .map(f -> f.getFileName().toString())
              .sorted()
              .toList();
    }
    assertThat(jars)
        .anyMatch(j -> j.startsWith("symbolicate-s3-source-connector-"))
        .anyMatch(j -> j.startsWith("symbolicate-schemas-"))
        .anyMatch(j -> j.startsWith("s3-"))
        .as("what the worker provides stays out of the plugin")
        .noneMatch(
            j ->
                j.startsWith("kafka-clients-")
                    || j.startsWith("connect-api-")
                    || j.startsWith("slf4j-"));

    // in memory: a PUT is listed at once and whole, as on S3. s3proxy's directory store writes a
    // PUT to "<key>-<uuid>" beside the key and lists that file too; an incremental listing that
    // sees it moves its offset past the key (which the 5 s reconciliation then finds)
    EmbeddedS3 s3server = EmbeddedS3.startInMemory();
    S3Client s3 = s3server.client();
    s3.createBucket(b -> b.bucket(BUCKET));
    EmbeddedConnectCluster connect = PackagedPlugin.connect("plugin-path-it", plugins);
    try {
      connect.kafka().createTopic(TOPIC, 1);
      PackagedPlugin.lap("PluginPathIT", "archive unpacked, S3 + Connect cluster started", t0);
      long t = System.nanoTime();

      // the embedded cluster's client hands back the body as the response's entity
      String listed =
          String.valueOf(
              connect.requestGet(connect.endpointForResource("connector-plugins")).getEntity());
      assertThat(listed).contains("\"class\":\"" + PackagedPlugin.CONNECTOR_CLASS + "\"");

      connect.configureConnector(
          CONNECTOR,
          PackagedPlugin.connectorConfig(
              BUCKET,
              s3server.endpoint().toString(),
              EmbeddedS3.ACCESS_KEY,
              EmbeddedS3.SECRET_KEY));
      connect
          .assertions()
          .assertConnectorAndExactlyNumTasksAreRunning(
              CONNECTOR, 1, "the connector from the archive runs");
      s3.putObject(
          b -> b.bucket(BUCKET).key("libA.so/0A/libA.so.sym"),
          RequestBody.fromString("MODULE Linux x86_64 0A libA.so\n"));
      List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
      try {
        connect.kafka().consume(1, 60_000, TOPIC).forEach(records::add);
      } catch (AssertionError e) {
        PackagedPlugin.dumpThreads("task-thread-");
        throw e;
      }
      ConsumerRecord<byte[], byte[]> r = records.get(0);
      assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("global|N|libA.so/0A");
      SymbolRequest req = WireSerdes.symbolRequest().decode(r.value());
      assertThat(req.getReason()).isEqualTo(RequestReason.upload);
      assertThat(req.getModuleKey()).isEqualTo("libA.so/0A");
      assertThat(new String(r.headers().lastHeader("s3.key").value(), StandardCharsets.UTF_8))
          .isEqualTo("libA.so/0A/libA.so.sym");
      PackagedPlugin.lap("PluginPathIT", "listed, running, object announced", t);
    } finally {
      long t = System.nanoTime();
      connect.stop();
      s3.close();
      s3server.close();
      PackagedPlugin.lap("PluginPathIT", "stopped", t);
      PackagedPlugin.lap("PluginPathIT", "whole test", t0);
    }
  }
}
