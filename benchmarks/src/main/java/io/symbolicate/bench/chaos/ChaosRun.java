package io.symbolicate.bench.chaos;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.nativecode.SyntheticSymFile;
import io.symbolicate.testkit.ChildJvm;
import io.symbolicate.testkit.ChildProcessKafka;
import io.symbolicate.testkit.ChildProcessKafkaCluster;
import io.symbolicate.testkit.EmbeddedS3;
import io.symbolicate.testkit.PausableProxy;
import io.symbolicate.testkit.events.BenchEvents;
import io.symbolicate.testkit.events.SampleEvents;
import io.symbolicate.testkit.events.SampleSymbols;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The chaos test: a real 3-node KRaft cluster (replication factor 3, {@code min.insync.replicas=2}),
 * stream instances and a loader as child processes, symbols in an S3 server behind a proxy that
 * can hang, and a steady flow of events while a plan of faults runs: an instance killed with
 * SIGKILL, a broker stopped and restarted, a new instance started, S3 paused. Afterwards a
 * read_committed reader must have seen every event exactly once, and the dead-letter topic
 * nothing but the injected bad events; the longest stall of each input partition's output is
 * reported.
 *
 * <p>Used by {@code ./symbolicator bench chaos} (the full plan) and by {@code ChaosIT} (a short one).
 */
public final class ChaosRun {
  static final String APP = "chaos";
  static final String RAW = "crash-events.raw";
  static final String OUT = "crash-events.symbolicated";
  static final String DLQ = "crash-events.dlq";
  static final String BUCKET = "symbols";

  /** Functions of each synthetic module: small tables, quick to load. */
  private static final int FUNCTIONS = 2000;

  /** First synthetic module number of the modules that are first asked for while S3 is paused. */
  private static final int FRESH_BASE = 100;

  /** While S3 is paused, one event in this many needs a module no instance has loaded yet. */
  private static final int FRESH_EVERY = 20;

  /** Event ids of the warm-up, which are not counted. */
  private static final String WARM_PREFIX = "w-";

  private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(3);

  /** What a fault does. */
  public enum Action {
    KILL_INSTANCE("kill -9 instance"),
    START_INSTANCE("start a new instance"),
    STOP_BROKER("stop broker (SIGTERM)"),
    RESTART_BROKER("restart broker"),
    PAUSE_S3("pause S3"),
    RESUME_S3("resume S3");

    final String label;

    Action(String label) {
      this.label = label;
    }
  }

  /** A fault of the plan, {@code at} seconds after the events begin to flow. */
  public record Step(double at, Action action) {}

  /**
   * What to run; {@code settings} are extra {@code KEY=VALUE} configuration for every instance
   * (after the harness's own, so they win), to measure a setting against the faults.
   */
  public record Options(
      int events,
      int ratePerSecond,
      int partitions,
      int instances,
      int badEvents,
      List<Step> plan,
      Path workDir,
      boolean keepLogs,
      List<String> settings) {
    public Options {
      plan = List.copyOf(plan);
      settings = List.copyOf(settings);
    }

    public Options(
        int events,
        int ratePerSecond,
        int partitions,
        int instances,
        int badEvents,
        List<Step> plan,
        Path workDir,
        boolean keepLogs) {
      this(
          events,
          ratePerSecond,
          partitions,
          instances,
          badEvents,
          plan,
          workDir,
          keepLogs,
          List.of());
    }
  }

  /**
   * The full plan for {@code events} at {@code rate}: kill -9 an instance at 1/8 of the flow, stop
   * the broker coordinating the app's group at 2/8, start a new instance at 3/8, restart the
   * broker at 4/8, pause S3 from 5/8 for {@code s3PauseSeconds}.
   */
  public static List<Step> fullPlan(int events, int rate, double s3PauseSeconds) {
    double flow = (double) events / rate;
    double unit = flow / 8;
    return List.of(
        new Step(unit, Action.KILL_INSTANCE),
        new Step(2 * unit, Action.STOP_BROKER),
        new Step(3 * unit, Action.START_INSTANCE),
        new Step(4 * unit, Action.RESTART_BROKER),
        new Step(5 * unit, Action.PAUSE_S3),
        new Step(5 * unit + s3PauseSeconds, Action.RESUME_S3));
  }

  /** A fault as it happened: when it began and ended (seconds after the flow began) and on what. */
  public record Fault(Action action, String target, double began, double ended) {}

  /** A partition's longest stall: its length and when it began, in seconds after the flow began. */
  public record PartitionStall(int partition, int events, double seconds, double from) {}

  /** The outcome. */
  public record Report(
      int replicationFactor,
      String minInsyncReplicas,
      int sent,
      int badSent,
      int unacked,
      List<String> missing,
      Map<String, Integer> duplicates,
      List<String> unexpectedDeadLetters,
      Map<String, Integer> badInDlq,
      List<Fault> faults,
      List<PartitionStall> stalls,
      int freshEvents,
      double flowSeconds,
      double drainedAfter) {
    /** Every event exactly once, and nothing in the DLQ but each bad event once. */
    public boolean passed() {
      return unacked == 0
          && missing.isEmpty()
          && duplicates.isEmpty()
          && unexpectedDeadLetters.isEmpty()
          && badInDlq.size() == badSent
          && badInDlq.values().stream().allMatch(c -> c == 1);
    }

    public double longestStall() {
      return stalls.stream().mapToDouble(PartitionStall::seconds).max().orElse(0);
    }
  }

  private final Options o;
  private final PrintStream out;
  private final List<ChildJvm> instances = new ArrayList<>();
  private final List<Fault> faults = Collections.synchronizedList(new ArrayList<>());
  private ChildProcessKafkaCluster cluster;
  private PausableProxy proxy;
  private Path logs;
  private long flowStart;
  private volatile int stoppedBroker = -1;
  private int nextInstance = 1;

  public ChaosRun(Options o, PrintStream out) {
    this.o = o;
    this.out = out;
  }

  public Report run() throws Exception {
    Path dir = Files.createDirectories(o.workDir());
    logs = Files.createDirectories(dir.resolve("logs"));
    out.printf(
        "chaos: starting a 3-node KRaft cluster, S3 behind a pausable proxy (logs in %s)%n", logs);
    if (!o.settings().isEmpty()) {
      out.printf("chaos: every instance runs with %s%n", String.join(" ", o.settings()));
    }
    Report report = null;
    try (ChildProcessKafkaCluster c =
            ChildProcessKafkaCluster.start(
                3,
                // timed-out transactions (a killed instance's) are aborted within a second, as
                // docs/operations.md#failover asks of production brokers
                Map.of("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000"),
                ChildProcessKafka.TEST_JVM_OPTIONS);
        EmbeddedS3 s3 = EmbeddedS3.startInMemory();
        PausableProxy p = PausableProxy.start(s3.port())) {
      cluster = c;
      proxy = p;
      upload(s3);
      cluster.createTopics(o.partitions(), RAW);
      ChildJvm loader =
          ChildJvm.start(
              "loader",
              jvmOptions(),
              awsEnv(),
              logs,
              "io.symbolicate.app.cli.SymbolicatorCli",
              appArgs("loader", "loader"));
      try {
        for (int i = 0; i < o.instances(); i++) {
          startInstance();
        }
        report = exercise();
      } catch (Exception | AssertionError e) {
        instances.forEach(this::printTails);
        printTails(loader);
        throw e;
      } finally {
        for (ChildJvm i : instances) {
          i.close();
        }
        loader.close();
      }
      printReport(report);
      return report;
    } finally {
      if (report != null && report.passed() && !o.keepLogs()) {
        deleteTree(dir);
      } else {
        out.printf("chaos: logs kept in %s%n", logs);
      }
    }
  }

  private Report exercise() throws Exception {
    try (Admin admin = cluster.admin()) {
      awaitMembers(admin, o.instances());
      awaitTopic(admin, OUT);
      awaitTopic(admin, DLQ);
      OutputReader.Tally outputs = new OutputReader.Tally();
      Map<String, Integer> deadLetters = new ConcurrentHashMap<>();
      List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
      try (OutputReader outReader =
              OutputReader.start(
                  cluster.bootstrapServers(),
                  OUT,
                  a -> {
                    String id = new String(a.record().key(), StandardCharsets.UTF_8);
                    outputs.add(id, partitionOf(id), a.at());
                  });
          OutputReader dlqReader =
              OutputReader.start(
                  cluster.bootstrapServers(),
                  DLQ,
                  a -> deadLetter(a.record().value(), deadLetters, unexpected));
          Feeder feeder = new Feeder(cluster.bootstrapServers())) {
        warmUp(feeder, outputs);
        flowStart = System.nanoTime();
        feeder.start();
        runPlan(admin);
        feeder.join();
        long flowEnd = feeder.finishedAt();
        Set<String> expected = feeder.acked();
        out.printf(
            "chaos: %d events and %d bad ones sent in %.1f s (a send blocked the feeder %.1f s at most);"
                + " waiting for the output%n",
            expected.size(), feeder.badSent(), (flowEnd - flowStart) / 1e9, feeder.longestSend());
        long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
        while (!outputs.counts().keySet().containsAll(expected) && System.nanoTime() < deadline) {
          outReader.check();
          Thread.sleep(200);
        }
        long drained = System.nanoTime();
        Thread.sleep(3000); // a late duplicate or dead letter must be counted
        outReader.check();
        dlqReader.check();

        Map<String, Integer> counts = outputs.counts();
        counts.keySet().removeIf(id -> id.startsWith(WARM_PREFIX));
        List<String> missing =
            expected.stream().filter(id -> !counts.containsKey(id)).sorted().toList();
        Map<String, Integer> duplicates = new TreeMap<>();
        counts.forEach(
            (id, n) -> {
              if (n != 1 || !expected.contains(id)) {
                duplicates.put(id, n); // a duplicate, or an output of no event sent
              }
            });
        List<PartitionStall> stalls = new ArrayList<>();
        for (int p = 0; p < o.partitions(); p++) {
          List<Long> arrivals = outputs.arrivals(p);
          Collections.sort(arrivals);
          // up to the time every event was out: a partition still silent when the flow ended
          // stalls until its outputs came again, not just until the flow's end
          Stall s = Stall.longest(arrivals, flowStart, drained);
          int events = (int) arrivals.stream().filter(t -> t <= drained).count();
          stalls.add(
              new PartitionStall(p, events, s.length() / 1e9, (s.start() - flowStart) / 1e9));
        }
        return new Report(
            replication(admin),
            minInsync(admin),
            expected.size(),
            feeder.badSent(),
            feeder.unacked(),
            missing,
            duplicates,
            List.copyOf(unexpected),
            new TreeMap<>(deadLetters),
            sortedFaults(),
            stalls,
            feeder.fresh(),
            (flowEnd - flowStart) / 1e9,
            (drained - flowEnd) / 1e9);
      }
    }
  }

  /** The fewest replicas of a partition of the output topic (which the app created). */
  private static int replication(Admin admin) throws Exception {
    return admin.describeTopics(List.of(OUT)).allTopicNames().get().get(OUT).partitions().stream()
        .mapToInt(p -> p.replicas().size())
        .min()
        .orElse(0);
  }

  private static String minInsync(Admin admin) throws Exception {
    var r = new ConfigResource(ConfigResource.Type.TOPIC, OUT);
    return admin.describeConfigs(List.of(r)).all().get().get(r).get("min.insync.replicas").value();
  }

  private List<Fault> sortedFaults() {
    synchronized (faults) {
      return faults.stream().sorted(Comparator.comparingDouble(Fault::began)).toList();
    }
  }

  /**
   * Sends an event of each platform to every partition and waits until all came out: the
   * symbols are loaded and every task has run once before the clock of the stalls starts.
   */
  private void warmUp(Feeder feeder, OutputReader.Tally outputs) throws Exception {
    long t0 = System.nanoTime();
    List<String> ids = new ArrayList<>();
    for (int p = 0; p < o.partitions(); p++) {
      for (int k = 0; k < 3; k++) {
        String id = WARM_PREFIX + p + "-" + k;
        ids.add(id);
        CrashEvent e =
            k == 0
                ? SampleEvents.nativeEvent(id)
                : k == 1 ? SampleEvents.jsEvent(id) : SampleEvents.jvmEvent(id);
        feeder
            .producer
            .send(
                new ProducerRecord<>(
                    RAW, p, id.getBytes(StandardCharsets.UTF_8), WireSerdes.crashEvent().encode(e)))
            .get();
      }
    }
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (!outputs.counts().keySet().containsAll(ids)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the warm-up events did not come out within " + READY_TIMEOUT);
      }
      Thread.sleep(200);
    }
    out.printf("chaos: warm-up events out after %.1f s; the flow begins%n", since(t0));
  }

  /** Counts an injected bad event's dead letter, or notes one that is not. */
  private static void deadLetter(byte[] value, Map<String, Integer> bad, List<String> unexpected) {
    DeadLetter d;
    try {
      d = WireSerdes.deadLetter().decode(value);
    } catch (IOException | RuntimeException e) {
      unexpected.add("an undecodable dead letter: " + e.getMessage());
      return;
    }
    ByteBuffer key = d.getOriginalKey();
    String k = key == null ? null : StandardCharsets.UTF_8.decode(key.duplicate()).toString();
    if (k != null && k.startsWith("bad-")) {
      bad.merge(k, 1, Integer::sum);
    } else {
      unexpected.add(k + ": " + d.getErrorKind() + " " + d.getMessage());
    }
  }

  /**
   * Runs the plan. Stopping and restarting a broker take seconds (a controlled shutdown, a JVM
   * start, catching up), so they run in order on a thread of their own while the plan goes on;
   * a step that is due while an earlier one still ran starts late, and the steps after it are
   * shifted by as much, so that the gaps between faults (the S3 pause's length) stay as planned.
   */
  private void runPlan(Admin admin) throws Exception {
    List<Step> plan = new ArrayList<>(o.plan());
    plan.sort((a, b) -> Double.compare(a.at(), b.at()));
    ExecutorService brokerOps =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "chaos-broker-ops");
              t.setDaemon(true);
              return t;
            });
    List<Future<?>> pending = new ArrayList<>();
    long shift = 0;
    try {
      for (Step s : plan) {
        long due = flowStart + (long) (s.at() * 1e9) + shift;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        } else {
          shift += -wait;
        }
        if (s.action() == Action.STOP_BROKER || s.action() == Action.RESTART_BROKER) {
          pending.add(
              brokerOps.submit(
                  () -> {
                    double started = since(flowStart); // after the previous broker step
                    String target = apply(admin, s.action());
                    record(new Fault(s.action(), target, started, since(flowStart)));
                    return null;
                  }));
        } else {
          double began = since(flowStart);
          record(new Fault(s.action(), apply(admin, s.action()), began, since(flowStart)));
        }
      }
      for (var f : pending) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      brokerOps.shutdownNow();
    }
  }

  private void record(Fault f) {
    faults.add(f);
    out.printf(
        "chaos: %5.1f s %s%s (done at %.1f s)%n",
        f.began(), f.action().label, f.target().isEmpty() ? "" : " " + f.target(), f.ended());
  }

  private String apply(Admin admin, Action a) throws Exception {
    switch (a) {
      case KILL_INSTANCE -> {
        ChildJvm victim =
            instances.stream()
                .filter(ChildJvm::isAlive)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no instance left to kill"));
        victim.kill();
        return victim.name();
      }
      case START_INSTANCE -> {
        return startInstance().name();
      }
      case STOP_BROKER -> {
        int node = coordinator(admin);
        stoppedBroker = node;
        cluster.node(node).stop(Duration.ofSeconds(60));
        return "node " + node + " (the group's coordinator)";
      }
      case RESTART_BROKER -> {
        int node = stoppedBroker;
        if (node < 0) {
          throw new IllegalStateException("no broker was stopped");
        }
        cluster.node(node).restart();
        cluster.awaitBrokers(cluster.size(), Duration.ofSeconds(90));
        stoppedBroker = -1;
        return "node " + node;
      }
      case PAUSE_S3 -> {
        proxy.pause();
        return "";
      }
      case RESUME_S3 -> {
        proxy.resume();
        return "";
      }
      default -> throw new IllegalStateException("unknown action " + a);
    }
  }

  /** The node that coordinates the app's consumer group; node 2 if that cannot be told. */
  private static int coordinator(Admin admin) {
    try {
      return admin.describeConsumerGroups(List.of(APP)).all().get().get(APP).coordinator().id();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return 2;
    }
  }

  private ChildJvm startInstance() {
    String name = "instance-" + nextInstance++;
    List<String> args = appArgs("run", name);
    args.addAll(
        List.of(
            "--set",
            "streams.client.id=" + name,
            "--set",
            "state.dir=" + o.workDir().resolve("state-" + name)));
    for (String setting : o.settings()) {
      args.add("--set");
      args.add(setting);
    }
    ChildJvm i =
        ChildJvm.start(
            name, jvmOptions(), awsEnv(), logs, "io.symbolicate.app.cli.SymbolicatorCli", args);
    instances.add(i);
    return i;
  }

  private List<String> appArgs(String command, String name) {
    List<String> a = new ArrayList<>(List.of(command, "-b", cluster.bootstrapServers()));
    for (String s :
        List.of(
            "application.id=" + APP,
            "loader.embedded=false",
            "loader.warmup=false",
            "symbols.sources=s3",
            "symbols.s3.bucket=" + BUCKET,
            "symbols.s3.endpoint=http://127.0.0.1:" + proxy.port(),
            "symbols.s3.path-style=true",
            "topics.partitions=" + o.partitions(),
            "topics.replication.factor=3",
            "startup.timeout.ms=60000")) {
      a.add("--set");
      a.add(s);
    }
    return a;
  }

  /**
   * Small heaps, the serial collector and C1 only: seven JVMs share the machine's cores. Kafka's
   * clients log at info: their rebalances and state transitions explain a stall (the logs are
   * kept when a check fails, or with --dir).
   */
  private static List<String> jvmOptions() {
    return List.of(
        "-Xmx384m",
        "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1",
        "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.symbolicate.schema",
        "-Dsymbolicator.log.level=info",
        "-Dsymbolicator.log.kafka.level=info");
  }

  private static Map<String, String> awsEnv() {
    return Map.of(
        "AWS_ACCESS_KEY_ID",
        EmbeddedS3.ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY",
        EmbeddedS3.SECRET_KEY,
        "AWS_REGION",
        "us-east-1");
  }

  /** The demo's symbols, synthetic module 0, and the modules first needed while S3 is paused. */
  private void upload(EmbeddedS3 s3) {
    try (var client = s3.client()) {
      client.createBucket(b -> b.bucket(BUCKET));
      for (SampleSymbols.Upload u : SampleSymbols.uploads()) {
        client.putObject(b -> b.bucket(BUCKET).key(u.key()), RequestBody.fromBytes(u.body()));
      }
      for (int m : List.of(0, FRESH_BASE, FRESH_BASE + 1, FRESH_BASE + 2)) {
        String key =
            SyntheticSymFile.debugFile(m)
                + "/"
                + SyntheticSymFile.debugId(m)
                + "/"
                + SyntheticSymFile.debugFile(m)
                + ".sym";
        client.putObject(
            b -> b.bucket(BUCKET).key(key),
            RequestBody.fromBytes(SyntheticSymFile.sym(m, FUNCTIONS)));
      }
    }
  }

  private void awaitMembers(Admin admin, int count) throws Exception {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    int members = 0;
    while (System.nanoTime() < deadline) {
      for (ChildJvm i : instances) {
        if (!i.isAlive()) {
          printTails(i);
          throw new IllegalStateException(i.name() + " exited at start-up");
        }
      }
      members = assignedMembers(admin);
      if (members >= count) {
        out.printf(
            "chaos: %d instances joined the group (%.0f s)%n",
            members, (System.nanoTime() - deadline + READY_TIMEOUT.toNanos()) / 1e9);
        return;
      }
      Thread.sleep(500);
    }
    instances.forEach(this::printTails);
    throw new IllegalStateException(
        members + " of " + count + " instances own input partitions after " + READY_TIMEOUT);
  }

  private static int assignedMembers(Admin admin) throws Exception {
    ConsumerGroupDescription g;
    try {
      g = admin.describeConsumerGroups(List.of(APP)).all().get().get(APP);
    } catch (ExecutionException e) {
      return 0; // not there yet, or its coordinator is moving
    }
    int n = 0;
    for (MemberDescription m : g.members()) {
      for (TopicPartition tp : m.assignment().topicPartitions()) {
        if (tp.topic().equals(RAW)) {
          n++;
          break;
        }
      }
    }
    return n;
  }

  private static void awaitTopic(Admin admin, String topic) throws Exception {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (!admin.listTopics().names().get().contains(topic)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("topic " + topic + " was not created by the app");
      }
      Thread.sleep(200);
    }
  }

  /** The input partition of an event id {@code c-<partition>-<n>}. */
  static int partitionOf(String eventId) {
    int dash = eventId.indexOf('-', 2);
    try {
      return Integer.parseInt(eventId.substring(2, dash));
    } catch (RuntimeException e) {
      return -1;
    }
  }

  private static double since(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  private void printTails(ChildJvm c) {
    out.printf("---- %s (%s) ----%n%s%n", c.name(), c.log(), c.logTail(40));
  }

  private void printReport(Report r) {
    out.printf(
        "%nchaos: %d events in %.1f s (%d needing a module while S3 was paused), %d bad events;"
            + " all out %.1f s after the flow ended%n",
        r.sent(), r.flowSeconds(), r.freshEvents(), r.badSent(), r.drainedAfter());
    out.printf(
        "output topic: replication factor %d, min.insync.replicas %s%n",
        r.replicationFactor(), r.minInsyncReplicas());
    out.println("faults (seconds after the flow began):");
    for (Fault f : r.faults()) {
      out.printf(
          "  %6.1f  %s%s (done at %.1f)%n",
          f.began(), f.action().label, f.target().isEmpty() ? "" : " " + f.target(), f.ended());
    }
    out.println("partition  outputs  longest stall  from (s)");
    for (PartitionStall s : r.stalls()) {
      out.printf("  %7d  %7d  %11.1f s  %8.1f%n", s.partition(), s.events(), s.seconds(), s.from());
    }
    out.printf(
        "read_committed: %d missing, %d duplicated or unknown; DLQ: %d of %d bad events, %d other dead letters;"
            + " %d sends unacknowledged%n",
        r.missing().size(),
        r.duplicates().size(),
        r.badInDlq().size(),
        r.badSent(),
        r.unexpectedDeadLetters().size(),
        r.unacked());
    if (!r.missing().isEmpty()) {
      out.println("  missing: " + r.missing().subList(0, Math.min(20, r.missing().size())));
    }
    if (!r.duplicates().isEmpty()) {
      out.println("  duplicated: " + r.duplicates().entrySet().stream().limit(20).toList());
    }
    if (!r.unexpectedDeadLetters().isEmpty()) {
      out.println(
          "  other dead letters: "
              + r.unexpectedDeadLetters()
                  .subList(0, Math.min(10, r.unexpectedDeadLetters().size())));
    }
    out.printf(
        "chaos: %s; longest stall %.1f s%n",
        r.passed() ? "PASSED (every event exactly once)" : "FAILED", r.longestStall());
  }

  private static void deleteTree(Path root) {
    try (var s = Files.walk(root)) {
      s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException ignored) {
      // best effort: a temporary directory
    }
  }

  /**
   * Sends the events at the configured rate, each to the partition its id names; the bad ones
   * spread evenly among them; while S3 is paused, one in {@link #FRESH_EVERY} needs a module
   * no instance has loaded yet. Counts an event as sent once the cluster acknowledged it.
   */
  private final class Feeder implements AutoCloseable {
    final KafkaProducer<byte[], byte[]> producer;
    private final Set<String> acked = ConcurrentHashMap.newKeySet();
    private final AtomicInteger unacked = new AtomicInteger();
    private final AtomicInteger badSent = new AtomicInteger();
    private final AtomicInteger fresh = new AtomicInteger();
    private volatile long longestSend;
    private volatile long finishedAt;
    private final Thread thread = new Thread(this::run, "chaos-feeder");
    private volatile Exception failure;

    Feeder(String bootstrap) {
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ProducerConfig.ACKS_CONFIG, "all");
      p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
      p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
      // a stopped broker's partitions move within seconds; nothing may be given up meanwhile
      p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 180_000);
      p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 180_000);
      producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
      thread.setDaemon(true);
    }

    void start() {
      thread.start();
    }

    private void run() {
      try {
        long period = 1_000_000_000L / o.ratePerSecond();
        long next = System.nanoTime();
        int badEvery = o.badEvents() > 0 ? Math.max(1, o.events() / o.badEvents()) : 0;
        BenchEvents[] freshEvents = new BenchEvents[3];
        for (int f = 0; f < freshEvents.length; f++) {
          int m = FRESH_BASE + f;
          freshEvents[f] =
              new BenchEvents(
                  1,
                  FUNCTIONS,
                  new String[] {SyntheticSymFile.debugId(m), SyntheticSymFile.debugFile(m)});
        }
        Random rnd = new Random(32);
        int bad = 0;
        for (int i = 0; i < o.events(); i++) {
          int p = i % o.partitions();
          if (badEvery > 0 && i % badEvery == badEvery / 2 && bad < o.badEvents()) {
            String key = "bad-" + bad++;
            producer.send(
                new ProducerRecord<>(
                    RAW, p, key.getBytes(StandardCharsets.UTF_8), SampleEvents.undecodableBytes()),
                (md, e) -> {
                  if (e == null) {
                    badSent.incrementAndGet();
                  }
                });
          }
          String id = "c-" + p + "-" + i;
          CrashEvent e;
          if (proxy.isPaused() && i % FRESH_EVERY == 0) {
            e =
                CrashEvent.newBuilder(
                        freshEvents[fresh.getAndIncrement() % freshEvents.length].event(i, rnd))
                    .setEventId(id)
                    .build();
          } else {
            e =
                switch (i % 3) {
                  case 0 -> SampleEvents.nativeEvent(id);
                  case 1 -> SampleEvents.jsEvent(id);
                  default -> SampleEvents.jvmEvent(id);
                };
          }
          long before = System.nanoTime();
          producer.send(
              new ProducerRecord<>(
                  RAW, p, id.getBytes(StandardCharsets.UTF_8), WireSerdes.crashEvent().encode(e)),
              (md, ex) -> {
                if (ex == null) {
                  acked.add(id);
                } else {
                  unacked.incrementAndGet();
                }
              });
          longestSend = Math.max(longestSend, System.nanoTime() - before);
          next += period;
          long sleep = next - System.nanoTime();
          if (sleep > 0) {
            LockSupport.parkNanos(sleep);
          }
        }
        producer.flush();
      } catch (Exception e) {
        failure = e;
      } finally {
        finishedAt = System.nanoTime();
      }
    }

    long finishedAt() {
      return finishedAt;
    }

    void join() throws Exception {
      thread.join();
      if (failure != null) {
        throw failure;
      }
    }

    Set<String> acked() {
      return new HashSet<>(acked);
    }

    int unacked() {
      return unacked.get();
    }

    int badSent() {
      return badSent.get();
    }

    int fresh() {
      return fresh.get();
    }

    /** The longest a send blocked the feeder (waiting for metadata or buffer space), in seconds. */
    double longestSend() {
      return longestSend / 1e9;
    }

    @Override
    public void close() {
      producer.close(Duration.ofSeconds(30));
    }
  }
}
