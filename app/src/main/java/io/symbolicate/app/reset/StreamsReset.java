package io.symbolicate.app.reset;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKey;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.app.runtime.SymbolEngines;
import io.symbolicate.topology.SymbolicationTopology;
import io.symbolicate.topology.parking.ParkingProcessor;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeProducersResult;
import org.apache.kafka.clients.admin.ListStreamsGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;

/**
 * Resets the stream application so that it reads its input again from the start, or from an
 * instant: the reprocessing of historical events. What Kafka's {@code kafka-streams-application-reset}
 * tool does for this app (its one input topic, no intermediate topics), done with the Admin
 * client rather than with the tool's module, which brings Kafka Connect's runtime along.
 *
 * <ol>
 *   <li>refuses while the app's group has members (every instance must be stopped), for the
 *       classic and the streams rebalance protocol alike;
 *   <li>moves the group's committed offsets on {@code topic.raw} to the earliest offset, or to the
 *       first at or after the instant (the end for partitions with nothing after it), but never
 *       past an event that was still parked when the app stopped (the parked stores go with
 *       their changelogs), and never forward past unprocessed events unless asked to;
 *   <li>deletes the app's internal topics, by their exact names from the topology (changelogs of
 *       the parked-event stores and of the missing-symbols count, the repartition topic of that
 *       count; a topic of another app whose id merely starts with this one's is left alone):
 *       Kafka Streams creates them again, empty;
 *   <li>deletes this machine's task state of the app ({@code state.dir/application.id}), but keeps
 *       the global store's copy of {@code symbols.tables} (its topic is not reset).
 * </ol>
 *
 * The symbol tables, the loader's own group ({@code <application.id>-loader}) and the output
 * topics are left alone.
 *
 * <p>A <em>clean</em> ({@link #planClean}, {@link #applyClean}) removes the stopped app from the
 * cluster instead, as streams-bootstrap's {@code clean} does: its group, its internal topics and
 * this machine's whole state of it, and on request its output topics. It refuses while events are
 * still parked (they would never come out) unless told to discard them. The symbol topics, the
 * loader's group and the input stay: other instances, loaders and apps share them.
 */
public final class StreamsReset {
  /** How the app's group rebalances, as far as the broker knows it. */
  public enum GroupKind {
    NONE,
    CLASSIC,
    STREAMS
  }

  /** What a reset does; {@link #apply} carries it out. */
  public record Plan(
      String group,
      String inputTopic,
      Map<TopicPartition, Long> current,
      Map<TopicPartition, Long> offsets,
      List<String> internalTopics,
      Path stateDir,
      GroupKind kind) {

    /** Partitions whose new offset lies past the committed one: events not processed yet would be skipped. */
    public List<TopicPartition> skipsAhead() {
      List<TopicPartition> ahead = new ArrayList<>();
      offsets.forEach(
          (tp, o) -> {
            Long c = current.get(tp);
            if (c != null && o > c) {
              ahead.add(tp);
            }
          });
      ahead.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
      return ahead;
    }

    public String describe() {
      StringBuilder sb = new StringBuilder();
      sb.append("group ")
          .append(group)
          .append(" (")
          .append(kind.name().toLowerCase(Locale.ROOT))
          .append("): ")
          .append(inputTopic)
          .append(" offsets ");
      List<String> parts = new ArrayList<>();
      Map<Integer, TopicPartition> ordered = new TreeMap<>();
      offsets.keySet().forEach(tp -> ordered.put(tp.partition(), tp));
      ordered.forEach(
          (p, tp) -> {
            Long c = current.get(tp);
            parts.add(p + ": " + (c == null ? "none" : c) + " -> " + offsets.get(tp));
          });
      sb.append(String.join(", ", parts)).append('\n');
      sb.append("internal topics to delete: ")
          .append(internalTopics.isEmpty() ? "none" : internalTopics)
          .append('\n');
      sb.append("local task state to delete: ")
          .append(Files.exists(stateDir) ? stateDir : "none (" + stateDir + ")")
          .append(" (keeping its global/)");
      return sb.toString();
    }
  }

  /** What a clean does; {@link #applyClean} carries it out. */
  public record CleanPlan(
      String group,
      GroupKind kind,
      List<String> internalTopics,
      List<String> outputTopics,
      boolean deleteOutputs,
      int parkedEvents,
      Path stateDir) {

    /** The topics the clean deletes: the internal ones, and the outputs if asked to. */
    public List<String> topicsToDelete() {
      List<String> all = new ArrayList<>(internalTopics);
      if (deleteOutputs) {
        all.addAll(outputTopics);
      }
      return all;
    }

    public String describe() {
      StringBuilder sb = new StringBuilder();
      sb.append("group ")
          .append(group)
          .append(": ")
          .append(
              kind == GroupKind.NONE
                  ? "none on the cluster"
                  : "delete (" + kind.name().toLowerCase(Locale.ROOT) + ")")
          .append('\n');
      sb.append("internal topics to delete: ")
          .append(internalTopics.isEmpty() ? "none" : internalTopics)
          .append('\n');
      sb.append("output topics ")
          .append(deleteOutputs ? "to delete: " : "kept (--delete-outputs deletes them): ")
          .append(outputTopics.isEmpty() ? "none" : outputTopics)
          .append('\n');
      sb.append("local state to delete: ")
          .append(Files.exists(stateDir) ? stateDir : "none (" + stateDir + ")")
          .append(" (all of it)");
      if (parkedEvents > 0) {
        sb.append('\n')
            .append("events still parked, never to come out after the clean: ")
            .append(parkedEvents);
      }
      return sb.toString();
    }
  }

  /** The reset cannot be done (the app still runs, the input topic is missing, the cluster is away). */
  public static final class ResetException extends RuntimeException {
    public ResetException(String message) {
      super(message);
    }
  }

  private final AppConfig cfg;
  private final int timeoutMs;
  private final String appId;
  private final Path stateDir;

  public StreamsReset(AppConfig cfg) {
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

  private Admin admin() {
    try {
      return Admin.create(KafkaProperties.admin(cfg));
    } catch (org.apache.kafka.common.KafkaException e) {
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

  /**
   * What {@link #apply} would do, to the earliest offsets ({@code to} null) or to an instant.
   */
  public Plan plan(Instant to) {
    String input = cfg.get(ConfigKeys.TOPIC_RAW);
    try (Admin admin = admin()) {
      GroupKind kind = requireStopped(admin);
      TopicDescription topic;
      try {
        topic = get(admin.describeTopics(List.of(input)).allTopicNames()).get(input);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
          throw new ResetException("input topic " + input + " does not exist");
        }
        throw failed("describing " + input, e);
      }
      Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
      topic
          .partitions()
          .forEach(
              p ->
                  specs.put(
                      new TopicPartition(input, p.partition()),
                      to == null
                          ? OffsetSpec.earliest()
                          : OffsetSpec.forTimestamp(to.toEpochMilli())));
      Map<TopicPartition, Long> offsets = new HashMap<>();
      List<TopicPartition> pastTheEnd = new ArrayList<>();
      get(admin.listOffsets(specs).all())
          .forEach(
              (tp, info) -> {
                if (info.offset() < 0) {
                  pastTheEnd.add(tp); // nothing at or after the instant
                } else {
                  offsets.put(tp, info.offset());
                }
              });
      if (!pastTheEnd.isEmpty()) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        pastTheEnd.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        get(admin.listOffsets(latest).all()).forEach((tp, info) -> offsets.put(tp, info.offset()));
      }
      Map<TopicPartition, Long> current = committed(admin, kind, input);

      List<String> internal = existingInternalTopics(get(admin.listTopics().names()));
      // events still parked at the stop live only in the changelogs about to go: start no later
      // than the first of them
      List<String> parkedLogs = parkedChangelogs(internal);
      firstParked(parkedKeys(admin, parkedLogs), input)
          .forEach((tp, first) -> offsets.computeIfPresent(tp, (k, o) -> Math.min(o, first)));
      return new Plan(appId, input, current, offsets, internal, stateDir, kind);
    } catch (ExecutionException e) {
      throw failed("planning the reset", e);
    }
  }

  /** The app's internal topics that exist on the cluster. */
  private List<String> existingInternalTopics(Set<String> existing) {
    TopologyDescription topology =
        SymbolicationTopology.build(cfg.topologyConfig(), SymbolEngines.steps()).describe();
    List<String> internal = new ArrayList<>(internalTopicsOf(appId, topology));
    internal.retainAll(existing);
    return internal;
  }

  /**
   * What {@link #applyClean} would do; the output topics ({@code topic.symbolicated},
   * {@code topic.dlq}, {@code topic.missing}) are deleted only if {@code deleteOutputs}.
   */
  public CleanPlan planClean(boolean deleteOutputs) {
    try (Admin admin = admin()) {
      GroupKind kind = requireStopped(admin);
      Set<String> existing = get(admin.listTopics().names());
      List<String> internal = existingInternalTopics(existing);
      int parked = parkedKeys(admin, parkedChangelogs(internal)).size();
      // an output configured onto the input or a symbol topic is never deleted with the app
      Set<String> shared =
          Set.of(
              cfg.get(ConfigKeys.TOPIC_RAW),
              cfg.get(ConfigKeys.TOPIC_REQUESTS),
              cfg.get(ConfigKeys.TOPIC_TABLES),
              cfg.get(ConfigKeys.TOPIC_INDEX),
              cfg.get(ConfigKeys.TOPIC_UPLOADS));
      List<String> outputs = new ArrayList<>();
      for (ConfigKey key :
          List.of(ConfigKeys.TOPIC_SYMBOLICATED, ConfigKeys.TOPIC_DLQ, ConfigKeys.TOPIC_MISSING)) {
        String t = cfg.get(key);
        if (existing.contains(t) && !shared.contains(t) && !outputs.contains(t)) {
          outputs.add(t);
        }
      }
      if (deleteOutputs) {
        requireOwnOutputs(admin, outputs);
      }
      return new CleanPlan(appId, kind, internal, outputs, deleteOutputs, parked, stateDir);
    } catch (ExecutionException e) {
      throw failed("planning the clean", e);
    }
  }

  /**
   * Refuses to delete an output that a producer other than this app's wrote to recently (the
   * broker keeps a producer's state for {@code producer.id.expiration.ms}, a day by default): a
   * reprocessing app that changed only its id would otherwise delete the running app's outputs.
   * The app's own producers are transactional, named {@code <application.id>-<process>-<thread>}.
   */
  private void requireOwnOutputs(Admin admin, List<String> outputs) throws ExecutionException {
    if (outputs.isEmpty()) {
      return;
    }
    List<TopicPartition> parts = new ArrayList<>();
    for (TopicDescription d : get(admin.describeTopics(outputs).allTopicNames()).values()) {
      d.partitions().forEach(p -> parts.add(new TopicPartition(d.name(), p.partition())));
    }
    Map<Long, String> writers = new TreeMap<>(); // producer id -> a topic it wrote to
    for (Map.Entry<TopicPartition, DescribeProducersResult.PartitionProducerState> e :
        get(admin.describeProducers(parts).all()).entrySet()) {
      for (ProducerState ps : e.getValue().activeProducers()) {
        writers.putIfAbsent(ps.producerId(), e.getKey().topic());
      }
    }
    if (writers.isEmpty()) {
      return;
    }
    Map<Long, String> transactional = new HashMap<>();
    for (TransactionListing t :
        get(
            admin
                .listTransactions(new ListTransactionsOptions().filterProducerIds(writers.keySet()))
                .all())) {
      transactional.put(t.producerId(), t.transactionalId());
    }
    Pattern own =
        Pattern.compile(Pattern.quote(appId) + "-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}-\\d+");
    for (Map.Entry<Long, String> w : writers.entrySet()) {
      String tid = transactional.get(w.getKey());
      if (tid == null || !own.matcher(tid).matches()) {
        throw new ResetException(
            "output topic "
                + w.getValue()
                + " was written recently by "
                + (tid == null
                    ? "producer id " + w.getKey() + ", not a transactional producer of this app"
                    : "transactional producer " + tid + ", not this app's")
                + ": it is not this app's alone, so --delete-outputs refuses (an app on at_least_once has no "
                + "transactional producers; delete such topics with Kafka's own tools)");
      }
    }
  }

  /**
   * Carries out a clean; checks again that the app is stopped. Refuses while events are parked
   * unless {@code discardParked}.
   */
  public void applyClean(CleanPlan plan, boolean discardParked) {
    if (plan.parkedEvents() > 0 && !discardParked) {
      throw new ResetException(
          plan.parkedEvents()
              + " event(s) are still parked and would never come out: run the "
              + "app until they are released (park.timeout.ms), or discard them (--discard-parked)");
    }
    // an instance on this machine that is still restoring its global store holds the state
    // directory's lock before it joins the group: the lock is taken first, and held throughout
    withStateLock(
        plan.stateDir(),
        () -> {
          try (Admin admin = admin()) {
            GroupKind kind = requireStopped(admin);
            // the broker refuses to delete a group with members: the real check against a start
            switch (kind) {
              case CLASSIC -> get(admin.deleteConsumerGroups(List.of(plan.group())).all());
              case STREAMS -> get(admin.deleteStreamsGroups(List.of(plan.group())).all());
              case NONE -> {}
            }
            List<String> topics = new ArrayList<>(plan.topicsToDelete());
            topics.retainAll(get(admin.listTopics().names()));
            if (plan.deleteOutputs()) {
              requireOwnOutputs(
                  admin, topics.stream().filter(plan.outputTopics()::contains).toList());
            }
            requireStopped(admin); // an instance elsewhere may have started since
            if (!topics.isEmpty()) {
              get(admin.deleteTopics(topics).all());
            }
          } catch (ExecutionException e) {
            throw failed("cleaning " + plan.group() + " (running the clean again is safe)", e);
          }
          deleteState(plan.stateDir(), false);
        });
  }

  /** Runs {@code work} holding the lock of the app's state directory (if it exists). */
  private static void withStateLock(Path dir, Runnable work) {
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
  private static final String LOCK_FILE = ".lock";

  /**
   * Carries out a plan; checks again that the app is stopped. Refuses to move an offset past the
   * committed one (events not processed yet) unless {@code allowSkipping}.
   */
  public void apply(Plan plan, boolean allowSkipping) {
    List<TopicPartition> ahead = plan.skipsAhead();
    if (!ahead.isEmpty() && !allowSkipping) {
      throw new ResetException(
          "the reset would move "
              + ahead
              + " past the committed offsets, skipping events "
              + "not processed yet; choose an earlier instant, or allow it (--allow-skipping)");
    }
    // held throughout, as for a clean: an instance here that is still restoring is refused
    withStateLock(
        plan.stateDir(),
        () -> {
          try (Admin admin = admin()) {
            GroupKind kind = requireStopped(admin);
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            plan.offsets().forEach((tp, o) -> commit.put(tp, new OffsetAndMetadata(o)));
            if (kind == GroupKind.STREAMS) {
              get(admin.alterStreamsGroupOffsets(plan.group(), commit).all());
            } else {
              get(admin.alterConsumerGroupOffsets(plan.group(), commit).all());
            }
            if (!plan.internalTopics().isEmpty()) {
              get(admin.deleteTopics(plan.internalTopics()).all());
            }
          } catch (ExecutionException e) {
            throw failed("resetting " + plan.group() + " (running the reset again is safe)", e);
          }
          deleteState(plan.stateDir(), true);
        });
  }

  /**
   * The app's state directory: everything in it but the lock file, and the global store's copy
   * too unless {@code keepGlobal}; the directory itself goes when nothing is kept. The caller
   * holds the lock.
   */
  private static void deleteState(Path dir, boolean keepGlobal) {
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

  private GroupKind requireStopped(Admin admin) throws ExecutionException {
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

  private Map<TopicPartition, Long> committed(Admin admin, GroupKind kind, String input)
      throws ExecutionException {
    Map<TopicPartition, OffsetAndMetadata> all =
        switch (kind) {
          case NONE -> Map.of();
          case CLASSIC ->
              get(admin.listConsumerGroupOffsets(appId).partitionsToOffsetAndMetadata());
          case STREAMS ->
              get(
                  admin
                      .listStreamsGroupOffsets(Map.of(appId, new ListStreamsGroupOffsetsSpec()))
                      .partitionsToOffsetAndMetadata(appId));
        };
    Map<TopicPartition, Long> out = new HashMap<>();
    all.forEach(
        (tp, om) -> {
          if (tp.topic().equals(input) && om != null) {
            out.put(tp, om.offset());
          }
        });
    return out;
  }

  /** The first input offset per partition among the parked keys ({@code topic-partition-offset}). */
  private static Map<TopicPartition, Long> firstParked(Set<String> parkedKeys, String input) {
    Map<TopicPartition, Long> first = new HashMap<>();
    for (String key : parkedKeys) {
      ParkingProcessor.SourcePosition at = ParkingProcessor.SourcePosition.parse(key);
      if (at != null && at.topic().equals(input)) {
        first.merge(new TopicPartition(input, at.partition()), at.offset(), Math::min);
      }
    }
    return first;
  }

  /** The parked changelogs of the topology among {@code internal}. */
  private List<String> parkedChangelogs(List<String> internal) {
    return internal.stream()
        .filter(
            t -> t.startsWith(appId + "-" + StoreNames.PARKED_PREFIX) && t.endsWith("-changelog"))
        .toList();
  }

  /**
   * The keys of the events still parked: read from the parked stores' changelogs (a tombstone
   * releases a key).
   */
  private Set<String> parkedKeys(Admin admin, List<String> changelogs) throws ExecutionException {
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

  private <T> T get(KafkaFuture<T> f) throws ExecutionException {
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

  private ResetException failed(String what, ExecutionException e) {
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
