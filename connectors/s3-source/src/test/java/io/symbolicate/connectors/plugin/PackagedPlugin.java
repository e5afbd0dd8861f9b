package io.symbolicate.connectors.plugin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * The connector's plugin archive as `mvn package` built it (the failsafe execution of this package
 * passes its path as {@code connect.plugin.zip}), unpacked into a plugin.path directory, and an
 * embedded Connect cluster whose worker loads plugins from there. This package's tests run without
 * the connector's classes on their classpath (the failsafe execution "packaged-plugin" of the
 * module's pom, which runs the tests tagged {@value #TAG}), so the worker can only find
 * the connector in the archive.
 */
final class PackagedPlugin {
  /** The tests of the packaged plugin: the module's pom runs them in their own failsafe execution. */
  static final String TAG = "packaged-plugin";

  static final String CONNECTOR_CLASS = "io.symbolicate.connectors.s3.S3SourceConnector";

  /** Bounds for the unpacking: the archive is ours, but a broken build should fail clearly. */
  static final int MAX_ENTRIES = 1_000;

  static final long MAX_BYTES = 256L << 20;

  private PackagedPlugin() {}

  static Path archive() {
    String zip = System.getProperty("connect.plugin.zip");
    if (zip == null || !Files.isRegularFile(Path.of(zip))) {
      throw new IllegalStateException(
          "no plugin archive at connect.plugin.zip="
              + zip
              + ": run through failsafe after `package` (mvn -pl connectors/s3-source verify)");
    }
    return Path.of(zip);
  }

  /** Unpacks the archive under {@code pluginPath} (the directory a worker's plugin.path names). */
  static Path unpack(Path pluginPath) throws IOException {
    Path root = pluginPath.toAbsolutePath().normalize();
    Files.createDirectories(root);
    int entries = 0;
    long bytes = 0;
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(archive()))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        if (++entries > MAX_ENTRIES) {
          throw new IOException("plugin archive has over " + MAX_ENTRIES + " entries");
        }
        Path to = root.resolve(e.getName()).normalize();
        if (!to.startsWith(root)) {
          throw new IOException("plugin archive entry outside its directory: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(to);
          continue;
        }
        Files.createDirectories(to.getParent());
        bytes += Files.copy(in, to);
        if (bytes > MAX_BYTES) {
          throw new IOException("plugin archive unpacks to over " + MAX_BYTES + " bytes");
        }
      }
    }
    return root;
  }

  /** A one-broker, one-worker Connect cluster loading plugins from {@code pluginPath}, started. */
  static EmbeddedConnectCluster connect(String name, Path pluginPath) {
    Map<String, String> worker = new HashMap<>();
    worker.put("plugin.path", pluginPath.toString());
    // plugins found through their META-INF/services entries (the archive's jar has one); the
    // reflective scan of the test classpath would add half a minute
    worker.put("plugin.discovery", "service_load");
    worker.put("offset.flush.interval.ms", "500");
    Properties broker = new Properties();
    // single-replica transaction log: the stream app beside it runs exactly-once
    broker.put("transaction.state.log.replication.factor", "1");
    broker.put("transaction.state.log.min.isr", "1");
    broker.put("transaction.state.log.num.partitions", "2");
    EmbeddedConnectCluster connect =
        (EmbeddedConnectCluster)
            new EmbeddedConnectCluster.Builder()
                .name(name)
                .numWorkers(1)
                .numBrokers(1)
                .workerProps(worker)
                .brokerProps(broker)
                .build();
    connect.start();
    return connect;
  }

  /** The connector's settings for a bucket on an S3-compatible endpoint (names as in docs/connectors.md). */
  static Map<String, String> connectorConfig(
      String bucket, String endpoint, String accessKey, String secretKey) {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", CONNECTOR_CLASS);
    c.put("tasks.max", "1");
    c.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    c.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    c.put("s3.bucket", bucket);
    c.put("s3.endpoint", endpoint);
    c.put("s3.path.style.access", "true");
    c.put("aws.access.key.id", accessKey);
    c.put("aws.secret.access.key", secretKey);
    c.put("poll.interval.ms", "200");
    c.put("reconcile.interval.ms", "5000");
    c.put("s3.retry.backoff.max.ms", "500");
    return c;
  }

  static void lap(String test, String what, long since) {
    System.out.printf(
        "%s timing: %-50s %6d ms%n", test, what, (System.nanoTime() - since) / 1_000_000);
  }

  /** On a failure: what the connector's task threads were doing. */
  static void dumpThreads(String namePrefix) {
    Thread.getAllStackTraces()
        .forEach(
            (t, stack) -> {
              if (t.getName().startsWith(namePrefix)) {
                System.out.println("thread " + t.getName() + " " + t.getState());
                for (StackTraceElement e : stack) {
                  System.out.println("\tat " + e);
                }
              }
            });
  }
}
