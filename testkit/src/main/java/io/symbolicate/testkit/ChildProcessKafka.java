package io.symbolicate.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A real single-node KRaft broker (combined broker + controller) in a child JVM started from
 * this JVM's classpath, so it can be stopped (SIGTERM), killed (SIGKILL) and started again on the
 * same loopback port with the same log directories: what fault tests need and the in-process
 * test kit cannot do.
 *
 * <p>The child is always ended: by {@link #close()}, by a shutdown hook of this JVM, and, should
 * this JVM die without running hooks, by the child itself when its stdin closes
 * ({@link ChildBrokerMain}). It binds only to 127.0.0.1. Ports are picked below the kernel's
 * ephemeral range, so no outgoing connection can take them while the broker is down.
 */
public final class ChildProcessKafka implements LocalKafka {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  /**
   * JVM options for tests: a small heap, the serial collector and C1 only, so the broker starts
   * and serves a test's few records quickly without taking cores from the JVM under test.
   */
  public static final List<String> TEST_JVM_OPTIONS =
      List.of("-Xms64m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  /**
   * JVM options for a broker under sustained load (benchmarks): both compilers, and the heap and
   * collector settings that Kafka's own start scripts use.
   */
  public static final List<String> LOAD_JVM_OPTIONS =
      List.of(
          "-Xms1g",
          "-Xmx1g",
          "-XX:+UseG1GC",
          "-XX:MaxGCPauseMillis=20",
          "-XX:InitiatingHeapOccupancyPercent=35",
          "-XX:+ExplicitGCInvokesConcurrent");

  private final Path dir;
  private final Path config;
  private final Path log;
  private final int port;
  private final List<String> jvmOptions;
  private final Thread shutdownHook;
  private volatile Process process;
  private int starts;

  ChildProcessKafka(Path dir, Path config, int port, List<String> jvmOptions) {
    this.dir = dir;
    this.config = config;
    this.log = dir.resolve("broker.log");
    this.port = port;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.shutdownHook = new Thread(this::destroyQuietly, "child-kafka-killer");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Formats a fresh broker in a temporary directory, starts it and waits until it serves. */
  public static ChildProcessKafka start() {
    return start(Map.of());
  }

  /** As {@link #start()}, with extra broker properties. */
  public static ChildProcessKafka start(Map<String, String> brokerProps) {
    return start(brokerProps, TEST_JVM_OPTIONS);
  }

  /** As {@link #start(Map)}, with the broker JVM's options (heap, collector, compilers). */
  public static ChildProcessKafka start(Map<String, String> brokerProps, List<String> jvmOptions) {
    Path dir = null;
    ChildProcessKafka kafka = null;
    try {
      dir = Files.createTempDirectory("child-kafka-");
      int port = freePort(-1);
      int controllerPort = freePort(port);
      Properties p = new Properties();
      defaults(dir, port, controllerPort).forEach(p::setProperty);
      brokerProps.forEach(p::setProperty);
      Path config = dir.resolve("server.properties");
      try (Writer w = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
        p.store(w, "ChildProcessKafka");
      }
      kafka = new ChildProcessKafka(dir, config, port, jvmOptions);
      kafka.format();
      kafka.restart();
      return kafka;
    } catch (IOException | RuntimeException e) {
      if (kafka != null) {
        try {
          kafka.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      } else if (dir != null) {
        deleteTree(dir);
      }
      throw new IllegalStateException(
          "could not start the child-process Kafka broker: " + e.getMessage(), e);
    }
  }

  static Map<String, String> defaults(Path dir, int port, int controllerPort) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("process.roles", "broker,controller");
    m.put("node.id", "1");
    m.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    m.put(
        "listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    m.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    m.put("controller.listener.names", "CONTROLLER");
    m.put("inter.broker.listener.name", "PLAINTEXT");
    m.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    m.put("log.dirs", dir.resolve("data").toString());
    m.put("num.partitions", "1");
    m.put("auto.create.topics.enable", "false");
    m.put("offsets.topic.replication.factor", "1");
    m.put("offsets.topic.num.partitions", "2");
    m.put("transaction.state.log.replication.factor", "1");
    m.put("transaction.state.log.min.isr", "1");
    m.put("transaction.state.log.num.partitions", "2");
    m.put("share.coordinator.state.topic.replication.factor", "1");
    m.put("share.coordinator.state.topic.min.isr", "1");
    m.put("group.initial.rebalance.delay.ms", "0");
    return m;
  }

  /** KRaft needs formatted storage; StorageTool ends with an exit, hence its own process. */
  private void format() throws IOException {
    format(Uuid.randomUuid().toString());
  }

  /** Formats this node's storage for the cluster {@code clusterId} (every node of a cluster shares it). */
  void format(String clusterId) throws IOException {
    List<String> cmd = javaCommand(TEST_JVM_OPTIONS, "kafka.tools.StorageTool");
    cmd.addAll(List.of("format", "-t", clusterId, "-c", config.toString()));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("format.log").toFile())
            .start();
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("storage format did not finish in 60 s");
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            "storage format exited "
                + p.exitValue()
                + ": "
                + Files.readString(dir.resolve("format.log")).strip());
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while formatting", e);
    }
  }

  private static List<String> javaCommand(List<String> jvmOptions, String mainClass) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.addAll(
        List.of(
            "-Djava.net.preferIPv4Stack=true",
            "-cp",
            System.getProperty("java.class.path"),
            mainClass));
    return cmd;
  }

  /**
   * Starts the (stopped) broker again on the same port and log directories and waits until it
   * serves requests.
   */
  public synchronized void restart() {
    launch();
    awaitReady();
  }

  /**
   * Launches the (stopped) broker JVM without waiting for it: the nodes of a cluster are launched
   * together, since none serves before a majority of the controller quorum runs.
   */
  synchronized void launch() {
    if (isRunning()) {
      throw new IllegalStateException("the broker is running");
    }
    List<String> cmd = javaCommand(jvmOptions, ChildBrokerMain.class.getName());
    cmd.add(config.toString());
    try {
      // appended: the log of every run stays readable after a failure
      process =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not launch the broker JVM", e);
    }
    starts++;
  }

  /** Waits until the launched broker serves requests (answers a describeCluster with its nodes). */
  void awaitReady() {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
    p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
    try (Admin admin = Admin.create(p)) {
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          throw new IllegalStateException(
              "the broker exited with " + process.exitValue() + ":\n" + logTail(30));
        }
        try {
          if (!admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty()) {
            return;
          }
        } catch (Exception notYet) {
          if (notYet instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker");
          }
        }
        Thread.sleep(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the broker");
    }
    throw new IllegalStateException(
        "the broker was not ready within " + READY_TIMEOUT.toSeconds() + " s:\n" + logTail(30));
  }

  /**
   * Stops the broker with SIGTERM (a controlled shutdown) and waits for it; if it is still alive
   * after {@code timeout}, kills it. Returns the exit code.
   */
  public synchronized int stop(Duration timeout) {
    if (process == null) {
      throw new IllegalStateException("never started");
    }
    // SIGTERM through the handle: Process.destroy() would also close the child's stdin, which
    // ChildBrokerMain takes as the death of this JVM and halts without a controlled shutdown
    process.toHandle().destroy();
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    return process.exitValue();
  }

  /** Kills the broker with SIGKILL (no shutdown at all) and waits until it is gone. */
  public synchronized int kill() {
    if (process == null) {
      throw new IllegalStateException("never started");
    }
    process.destroyForcibly();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return process.exitValue();
  }

  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** The broker JVM's process id (for tests that check it is gone). */
  public synchronized long pid() {
    return process.pid();
  }

  /** The running broker JVM's CPU time (all its threads) in nanoseconds; -1 if not running or unknown. */
  @Override
  public synchronized long brokerCpuNanos() {
    if (process == null || !process.isAlive()) {
      return -1;
    }
    return process.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
  }

  /** How many times a broker process was launched. */
  public synchronized int starts() {
    return starts;
  }

  @Override
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /** The broker's directory: configuration, data and {@code broker.log}. */
  public Path directory() {
    return dir;
  }

  /** The last lines of the broker's log, for failure messages. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | RuntimeException e) {
      return "(no broker log: " + e + ")";
    }
  }

  @Override
  public Admin admin() {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Duration.ofSeconds(30).toMillis());
    return Admin.create(p);
  }

  /** Creates topics that do not exist yet. */
  @Override
  public void createTopics(int partitions, String... names) {
    try (Admin admin = admin()) {
      Set<String> existing = admin.listTopics().names().get();
      List<NewTopic> missing =
          Stream.of(names)
              .filter(n -> !existing.contains(n))
              .map(n -> new NewTopic(n, partitions, (short) 1))
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

  /** Kills the broker if it runs and deletes its directory. */
  @Override
  public void close() {
    closeProcess();
    deleteTree(dir);
  }

  /** Kills the broker if it runs and drops the shutdown hook; the directory stays. */
  void closeProcess() {
    destroyQuietly();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
  }

  /** Not synchronized: the shutdown hook must not wait for a start in progress. */
  private void destroyQuietly() {
    Process p = process;
    if (p != null && p.isAlive()) {
      p.destroyForcibly();
      try {
        p.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * A free loopback port below the ephemeral range (falling back to any free port), so that no
   * client connection is given it while the broker is down.
   */
  static int freePort(int not) throws IOException {
    int low = ephemeralLow();
    InetAddress lo = InetAddress.getByName("127.0.0.1");
    for (int i = 0; i < 200 && low > 12_000; i++) {
      int candidate = ThreadLocalRandom.current().nextInt(10_000, low - 1);
      if (candidate == not) {
        continue;
      }
      try (ServerSocket s = new ServerSocket(candidate, 1, lo)) {
        return s.getLocalPort();
      } catch (IOException taken) {
        // try another
      }
    }
    try (ServerSocket s = new ServerSocket(0, 1, lo)) {
      return s.getLocalPort();
    }
  }

  static int ephemeralLow() {
    try {
      // read as a stream: Files.readString trusts the size procfs reports and returns one byte
      try (var r = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
        return Integer.parseInt(r.readLine().trim().split("\\s+")[0]);
      }
    } catch (IOException | RuntimeException e) {
      return 32_768; // Linux's default
    }
  }

  static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      s.sorted(Comparator.reverseOrder())
          .forEach(
              f -> {
                try {
                  Files.deleteIfExists(f);
                } catch (IOException ignored) {
                  // best effort: a temp dir
                }
              });
    } catch (IOException ignored) {
      // best effort
    }
  }
}
