package io.symbolicate.testkit;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A real KRaft cluster of {@code n} nodes, each a combined broker and controller in a child JVM
 * ({@link ChildProcessKafka}), sharing one controller quorum: with three nodes a majority (two)
 * keeps the quorum and the partitions (replication factor 3, {@code min.insync.replicas=2})
 * while any one node is stopped, killed or restarting, as in a production cluster. Internal
 * topics (offsets, transactions) are replicated to every node.
 *
 * <p>Nodes are numbered from 1; {@link #node(int)} stops, kills and restarts one. Every process
 * is ended by {@link #close()}, a shutdown hook, or its own watchdog when this JVM dies.
 */
public final class ChildProcessKafkaCluster implements LocalKafka {
  private final Path dir;
  private final List<ChildProcessKafka> nodes;
  private final String bootstrap;
  private final int replication;

  private ChildProcessKafkaCluster(Path dir, List<ChildProcessKafka> nodes, int replication) {
    this.dir = dir;
    this.nodes = List.copyOf(nodes);
    this.replication = replication;
    this.bootstrap =
        nodes.stream().map(ChildProcessKafka::bootstrapServers).collect(Collectors.joining(","));
  }

  /**
   * Formats and starts {@code size} nodes (at least 1) with extra broker properties and JVM
   * options, and waits until every node serves.
   */
  public static ChildProcessKafkaCluster start(
      int size, Map<String, String> brokerProps, List<String> jvmOptions) {
    if (size < 1) {
      throw new IllegalArgumentException("a cluster needs a node, not " + size);
    }
    Path dir = null;
    List<ChildProcessKafka> nodes = new ArrayList<>();
    try {
      dir = Files.createTempDirectory("child-kafka-cluster-");
      int[] ports = new int[size];
      int[] controllerPorts = new int[size];
      Set<Integer> taken = new HashSet<>();
      StringJoiner voters = new StringJoiner(",");
      for (int i = 0; i < size; i++) {
        ports[i] = distinctPort(taken);
        controllerPorts[i] = distinctPort(taken);
        voters.add((i + 1) + "@127.0.0.1:" + controllerPorts[i]);
      }
      int replication = Math.min(3, size);
      int minIsr = Math.max(1, replication - 1);
      String clusterId = Uuid.randomUuid().toString();
      for (int i = 0; i < size; i++) {
        Path nodeDir = Files.createDirectories(dir.resolve("node-" + (i + 1)));
        Map<String, String> p =
            new LinkedHashMap<>(ChildProcessKafka.defaults(nodeDir, ports[i], controllerPorts[i]));
        p.put("node.id", String.valueOf(i + 1));
        p.put("controller.quorum.voters", voters.toString());
        p.put("default.replication.factor", String.valueOf(replication));
        p.put("min.insync.replicas", String.valueOf(minIsr));
        p.put("offsets.topic.replication.factor", String.valueOf(replication));
        p.put("transaction.state.log.replication.factor", String.valueOf(replication));
        p.put("transaction.state.log.min.isr", String.valueOf(minIsr));
        p.put("share.coordinator.state.topic.replication.factor", String.valueOf(replication));
        p.put("share.coordinator.state.topic.min.isr", String.valueOf(minIsr));
        p.putAll(brokerProps);
        Path config = nodeDir.resolve("server.properties");
        Properties props = new Properties();
        p.forEach(props::setProperty);
        try (Writer w = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
          props.store(w, "ChildProcessKafkaCluster node " + (i + 1));
        }
        ChildProcessKafka node = new ChildProcessKafka(nodeDir, config, ports[i], jvmOptions);
        nodes.add(node);
        node.format(clusterId);
      }
      // launched together: no node serves before a majority of the quorum runs
      nodes.forEach(ChildProcessKafka::launch);
      nodes.forEach(ChildProcessKafka::awaitReady);
      ChildProcessKafkaCluster cluster = new ChildProcessKafkaCluster(dir, nodes, replication);
      cluster.awaitBrokers(size, Duration.ofSeconds(90));
      return cluster;
    } catch (IOException | RuntimeException e) {
      for (ChildProcessKafka n : nodes) {
        try {
          n.closeProcess();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      if (dir != null) {
        ChildProcessKafka.deleteTree(dir);
      }
      throw new IllegalStateException(
          "could not start the child-process Kafka cluster: " + e.getMessage(), e);
    }
  }

  private static int distinctPort(Set<Integer> taken) throws IOException {
    for (int i = 0; i < 100; i++) {
      int port = ChildProcessKafka.freePort(-1);
      if (taken.add(port)) {
        return port;
      }
    }
    throw new IOException("no distinct free port found");
  }

  /** Waits until the cluster's metadata lists {@code count} brokers (a restarted node registered again). */
  public void awaitBrokers(int count, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
    try (Admin admin = Admin.create(p)) {
      int seen = 0;
      while (System.nanoTime() < deadline) {
        try {
          seen = admin.describeCluster().nodes().get().size();
          if (seen >= count) {
            return;
          }
        } catch (ExecutionException notYet) {
          // a node is still starting
        }
        Thread.sleep(200);
      }
      throw new IllegalStateException(
          "the cluster lists " + seen + " brokers, not " + count + ", after " + timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the cluster's brokers", e);
    }
  }

  /** Node {@code id} (1 to {@link #size()}): stop, kill and restart it. */
  public ChildProcessKafka node(int id) {
    if (id < 1 || id > nodes.size()) {
      throw new IllegalArgumentException("no node " + id + " in a cluster of " + nodes.size());
    }
    return nodes.get(id - 1);
  }

  public int size() {
    return nodes.size();
  }

  /** The replication factor of topics it creates: 3, or the node count if smaller. */
  public int replicationFactor() {
    return replication;
  }

  /** Every node's address, stopped ones included (clients skip those). */
  @Override
  public String bootstrapServers() {
    return bootstrap;
  }

  /** The running nodes' CPU time, in nanoseconds. */
  @Override
  public long brokerCpuNanos() {
    long sum = 0;
    for (ChildProcessKafka n : nodes) {
      sum += Math.max(0, n.brokerCpuNanos());
    }
    return sum;
  }

  @Override
  public Admin admin() {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Duration.ofSeconds(30).toMillis());
    return Admin.create(p);
  }

  /** Creates topics that do not exist yet, replicated {@link #replicationFactor()} times. */
  @Override
  public void createTopics(int partitions, String... names) {
    try (Admin admin = admin()) {
      Set<String> existing = admin.listTopics().names().get();
      List<NewTopic> missing =
          Stream.of(names)
              .filter(n -> !existing.contains(n))
              .map(n -> new NewTopic(n, partitions, (short) replication))
              .toList();
      if (!missing.isEmpty()) {
        admin.createTopics(missing).all().get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (Exception e) {
      throw new IllegalStateException("could not create topics: " + e.getMessage(), e);
    }
  }

  /** The cluster's directory: a {@code node-<id>} directory per node with its log. */
  public Path directory() {
    return dir;
  }

  /** Kills every node and deletes the cluster's data. */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (ChildProcessKafka n : nodes) {
      try {
        n.closeProcess();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    ChildProcessKafka.deleteTree(dir);
    if (failure != null) {
      throw failure;
    }
  }
}
