package io.symbolicate.testkit;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real single-node KRaft broker (combined broker + controller) running in this JVM, on a free
 * loopback port, with single-replica internal topics so transactions (exactly-once) work.
 * Data lives in a temporary directory removed on {@link #close()}.
 */
public final class EmbeddedKafka implements LocalKafka {
  private final KafkaClusterTestKit cluster;
  private final String bootstrap;

  private EmbeddedKafka(KafkaClusterTestKit cluster) {
    this.cluster = cluster;
    this.bootstrap = cluster.bootstrapServers();
  }

  /** Starts a broker with default settings and waits until it serves requests. */
  public static EmbeddedKafka start() {
    return start(Map.of());
  }

  /** Starts a broker with extra broker properties (e.g. message.max.bytes). */
  public static EmbeddedKafka start(Map<String, String> brokerProps) {
    KafkaClusterTestKit cluster = null;
    try {
      KafkaClusterTestKit.Builder b =
          new KafkaClusterTestKit.Builder(
              new TestKitNodes.Builder()
                  .setCombined(true)
                  .setNumBrokerNodes(1)
                  .setNumControllerNodes(1)
                  .build());
      b.setConfigProp("offsets.topic.replication.factor", "1");
      b.setConfigProp("offsets.topic.num.partitions", "2");
      b.setConfigProp("transaction.state.log.replication.factor", "1");
      b.setConfigProp("transaction.state.log.min.isr", "1");
      b.setConfigProp("transaction.state.log.num.partitions", "2");
      b.setConfigProp("group.initial.rebalance.delay.ms", "0");
      b.setConfigProp("auto.create.topics.enable", "false");
      brokerProps.forEach(b::setConfigProp);
      cluster = b.build();
      formatQuietly(cluster);
      cluster.startup();
      cluster.waitForReadyBrokers();
      return new EmbeddedKafka(cluster);
    } catch (Exception e) {
      if (cluster != null) {
        try {
          cluster.close();
        } catch (Exception suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("could not start the embedded Kafka broker: " + e, e);
    }
  }

  /** The test kit's storage formatter prints to stdout; keep demo and test output readable. */
  private static void formatQuietly(KafkaClusterTestKit cluster) throws Exception {
    PrintStream out = System.out;
    synchronized (System.class) {
      System.setOut(new PrintStream(OutputStream.nullOutputStream()));
      try {
        cluster.format();
      } finally {
        System.setOut(out);
      }
    }
  }

  @Override
  public String bootstrapServers() {
    return bootstrap;
  }

  /** Creates topics that do not exist yet (idempotent). */
  @Override
  public void createTopics(int partitions, String... names) {
    List<NewTopic> topics = new ArrayList<>();
    for (String n : names) {
      topics.add(new NewTopic(n, partitions, (short) 1));
    }
    createTopics(topics);
  }

  public void createTopics(List<NewTopic> topics) {
    try (Admin admin = admin()) {
      Set<String> existing = admin.listTopics().names().get();
      List<NewTopic> missing = topics.stream().filter(t -> !existing.contains(t.name())).toList();
      if (!missing.isEmpty()) {
        admin.createTopics(missing).all().get();
      }
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException("could not create topics: " + e.getCause(), e.getCause());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public Admin admin() {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Duration.ofSeconds(30).toMillis());
    return Admin.create(p);
  }

  @Override
  public void close() {
    try {
      cluster.close();
    } catch (Exception e) {
      throw new IllegalStateException("could not stop the embedded Kafka broker", e);
    }
  }
}
