package io.symbolicate.app.reset;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.app.runtime.SymbolEngines;
import io.symbolicate.topology.SymbolicationTopology;
import io.symbolicate.topology.store.StoreNames;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;

/**
 * What a reset ({@link StreamsReset}) and a clean ({@link StreamsClean}) both need of the stream
 * app they work on, which must be stopped: its application id and state directory as the app
 * runs with them, its group on the cluster (refused while it has members), its internal topics
 * named from the topology, the events still parked in them, the lock and the deletion of its
 * local state, and the Admin calls with the configured timeout.
 */
final class StoppedApp {
  private final AppConfig cfg;
  private final int timeoutMs;
  private final String appId;
  private final Path stateDir;

  StoppedApp(AppConfig cfg) {
    this.cfg = cfg;
    this.timeoutMs = cfg.getInt(ConfigKeys.STARTUP_TIMEOUT_MS);
    // what the app itself runs with: streams.* overrides win over the plain keys
    Properties p = KafkaProperties.streams(cfg);
    this.appId = String.valueOf(p.get(StreamsConfig.APPLICATION_ID_CONFIG));
    // the id names the directory deleted below state.dir: '.', '..' or a separator must not reach
    // it
    if (!LEGAL_ID.matcher(appId).matches() || appId.equals(".") || appId.equals("..")) {
      throw new ResetException(
          "application.id '"
              + appId
              + "' is not a legal Kafka name ([A-Za-z0-9._-]+, not . "
              + "or ..)");
    }
    Path root =
        Path.of(String.valueOf(p.get(StreamsConfig.STATE_DIR_CONFIG))).toAbsolutePath().normalize();
    this.stateDir = root.resolve(appId).normalize();
    if (!root.equals(stateDir.getParent())) {
      throw new ResetException(
          "application.id '" + appId + "' does not name a directory in " + root);
    }
  }

  private static final Pattern LEGAL_ID = Pattern.compile("[A-Za-z0-9._-]+");

  String appId() {
    return appId;
  }

  Path stateDir() {
    return stateDir;
  }

  Admin admin() {
    try {
      return Admin.create(KafkaProperties.admin(cfg));
    } catch (KafkaException e) {
      throw new ResetException(
          "cannot reach Kafka at " + cfg.bootstrapServers() + ": " + e.getMessage());
    }
  }

  /**
   * The internal topics Kafka Streams creates for this app: a changelog per logged store of the
   * topology and its repartition topics, named after the application id.
   */
  static Set<String> internalTopicsOf(String applicationId, TopologyDescription topology) {
    Set<String> names = new TreeSet<>();
    for (TopologyDescription.Subtopology sub : topology.subtopologies()) {
      for (TopologyDescription.Node node : sub.nodes()) {
        if (node instanceof TopologyDescription.Processor p) {
          p.stores().forEach(store -> names.add(applicationId + "-" + store + "-changelog"));
        } else if (node instanceof TopologyDescription.Sink s
            && s.topic() != null
            && s.topic().endsWith("-repartition")) {
          names.add(applicationId + "-" + s.topic());
        }
      }
    }
    return names;
  }

  /** The app's internal topics that exist on the cluster. */
  List<String> existingInternalTopics(Set<String> existing) {
    TopologyDescription topology =
        SymbolicationTopology.build(cfg.topologyConfig(), SymbolEngines.steps()).describe();
    List<String> internal = new ArrayList<>(internalTopicsOf(appId, topology));
    internal.retainAll(existing);
    return internal;
  }

  /** Runs {@code work} holding the lock of the app's state directory (if it exists). */
  static void withStateLock(Path dir, Runnable work) {
    if (!Files.isDirectory(dir)) {
      work.run();
      return;
    }
    Path lockFile = dir.resolve(LOCK_FILE);
    try (FileChannel ch =
        FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      FileLock lock;
      try {
        lock = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // held in this very JVM
      }
      if (lock == null) {
        throw new ResetException(
            "an instance on this machine still uses "
                + dir
                + " (it holds "
                + lockFile
                + "): stop it first");
      }
      try (FileLock held = lock) {
        work.run();
      }
    } catch (IOException e) {
      throw new ResetException("cannot lock the local state in " + dir + ": " + e.getMessage());
    }
  }

  /** Kafka Streams' lock file in an app's state directory. */
  static final String LOCK_FILE = ".lock";

  /**
   * The app's state directory: everything in it but the lock file, and the global store's copy
   * too unless {@code keepGlobal}; the directory itself goes when nothing is kept. The caller
   * holds the lock.
   */
  static void deleteState(Path dir, boolean keepGlobal) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> children = Files.list(dir)) {
      for (Path child : children.toList()) {
        String name = child.getFileName().toString();
        if (!name.equals(LOCK_FILE) && !(keepGlobal && name.equals("global"))) {
          Utils.delete(child.toFile());
        }
      }
      if (!keepGlobal) {
        Files.deleteIfExists(dir.resolve(LOCK_FILE));
        Files.deleteIfExists(dir);
      }
    } catch (IOException e) {
      throw new ResetException("cannot delete the local state in " + dir + ": " + e.getMessage());
    }
  }

  GroupKind requireStopped(Admin admin) throws ExecutionException {
    try {
      ConsumerGroupDescription d =
          get(admin.describeConsumerGroups(List.of(appId)).all()).get(appId);
      if (d != null && !d.members().isEmpty()) {
        throw running(d.members().size());
      }
      if (d != null && d.groupState() != GroupState.DEAD) {
        return GroupKind.CLASSIC;
      }
    } catch (ExecutionException e) {
      // also the answer for a group of the streams protocol: "not a consumer group"
      if (!(e.getCause() instanceof GroupIdNotFoundException)) {
        throw e;
      }
    }
    try {
      StreamsGroupDescription s = get(admin.describeStreamsGroups(List.of(appId)).all()).get(appId);
      if (s == null || s.groupState() == GroupState.DEAD) {
        return GroupKind.NONE;
      }
      if (!s.members().isEmpty()) {
        throw running(s.members().size());
      }
      return GroupKind.STREAMS;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof GroupIdNotFoundException
          || e.getCause() instanceof UnsupportedVersionException) {
        return GroupKind.NONE;
      }
      throw e;
    }
  }

  private ResetException running(int members) {
    return new ResetException(
        "the application is still running: group "
            + appId
            + " has "
            + members
            + " member(s); stop every instance (a killed one leaves after session.timeout.ms), then reset");
  }

  /** The parked changelogs of the topology among {@code internal}. */
  List<String> parkedChangelogs(List<String> internal) {
    return internal.stream()
        .filter(
            t -> t.startsWith(appId + "-" + StoreNames.PARKED_PREFIX) && t.endsWith("-changelog"))
        .toList();
  }

  /**
   * The keys of the events still parked: read from the parked stores' changelogs (a tombstone
   * releases a key).
   */
  Set<String> parkedKeys(Admin admin, List<String> changelogs) throws ExecutionException {
    if (changelogs.isEmpty()) {
      return Set.of();
    }
    Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
    for (TopicDescription d : get(admin.describeTopics(changelogs).allTopicNames()).values()) {
      d.partitions()
          .forEach(p -> ends.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest()));
    }
    Map<TopicPartition, Long> endOffsets = new HashMap<>();
    get(admin.listOffsets(ends).all()).forEach((tp, info) -> endOffsets.put(tp, info.offset()));
    Set<String> live = new HashSet<>();
    // the connection's settings (security, timeouts), as for the Admin client; not the app's
    // consumer behaviour (group.protocol=streams is no plain consumer's)
    Properties p =
        KafkaProperties.client(cfg, ConsumerConfig.configNames(), StreamsConfig.CONSUMER_PREFIX);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>(endOffsets.keySet());
      c.assign(parts);
      c.seekToBeginning(parts);
      long deadline =
          System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(timeoutMs, 60_000));
      while (parts.stream().anyMatch(tp -> c.position(tp) < endOffsets.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new ResetException(
              "could not read the parked events' changelogs " + changelogs + " in time");
        }
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          if (r.key() == null) {
            continue;
          }
          String key = new String(r.key(), StandardCharsets.UTF_8);
          if (r.value() == null) {
            live.remove(key);
          } else {
            live.add(key);
          }
        }
      }
    }
    return live;
  }

  /**
   * Deletes topics and waits until the listing no longer shows them (at most the admin timeout):
   * the brokers learn of a deletion a moment after the controller accepted it, and a run or a
   * listing right after the command would still see them.
   */
  void deleteTopics(Admin admin, Collection<String> topics) throws ExecutionException {
    if (topics.isEmpty()) {
      return;
    }
    get(admin.deleteTopics(topics).all());
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (true) {
      Set<String> left = new TreeSet<>(get(admin.listTopics().names()));
      left.retainAll(topics);
      if (left.isEmpty()) {
        return;
      }
      if (System.nanoTime() > until) {
        throw new ResetException(
            "topics "
                + left
                + " are still listed "
                + timeoutMs
                + " ms after their deletion was accepted; run the command again");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ResetException("interrupted");
      }
    }
  }

  <T> T get(KafkaFuture<T> f) throws ExecutionException {
    try {
      return f.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ResetException("interrupted");
    } catch (TimeoutException e) {
      throw new ResetException(
          "no answer from Kafka at " + cfg.bootstrapServers() + " within " + timeoutMs + " ms");
    }
  }

  ResetException failed(String what, ExecutionException e) {
    Throwable c = e.getCause() == null ? e : e.getCause();
    if (c instanceof org.apache.kafka.common.errors.TimeoutException) {
      return new ResetException(
          what
              + " failed: no answer from Kafka at "
              + cfg.bootstrapServers()
              + " within "
              + timeoutMs
              + " ms ("
              + c.getMessage()
              + ")");
    }
    return new ResetException(
        what + " failed: " + c.getClass().getSimpleName() + ": " + c.getMessage());
  }
}
