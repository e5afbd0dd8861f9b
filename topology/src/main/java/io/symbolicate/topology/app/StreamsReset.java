package io.symbolicate.topology.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.utils.Utils;

/**
 * Resets the stream application so that it reads its input again from the start, or from an
 * instant: the reprocessing of historical events. What Kafka's {@code kafka-streams-application-reset}
 * tool does for this app (its one input topic, no intermediate topics), done with the Admin
 * client rather than with the tool's module, which brings Kafka Connect's runtime along.
 *
 * <ol>
 *   <li>refuses while the app's consumer group has members (every instance must be stopped);
 *   <li>moves the group's committed offsets on {@code topic.raw} to the earliest offset, or to the
 *       first at or after the instant (the end for partitions with nothing after it);
 *   <li>deletes the app's internal topics (changelogs of the parked-event stores and of the
 *       missing-symbols count, the repartition topic of that count): Kafka Streams creates them
 *       again, empty;
 *   <li>deletes this machine's state directory of the app (run the reset, or delete
 *       {@code state.dir/application.id}, on every machine that ran an instance).
 * </ol>
 *
 * The symbol tables, the loader's own group ({@code <application.id>-loader}) and the output
 * topics are left alone: the reprocessed events come out again beside the first outputs (keyed
 * by {@code event_id}, so consumers keep the latest).
 */
public final class StreamsReset {
  /** What a reset does; {@link #apply} carries it out. */
  public record Plan(String group, String inputTopic, Map<TopicPartition, Long> offsets, List<String> internalTopics,
      Path stateDir) {
    public String describe() {
      StringBuilder sb = new StringBuilder();
      sb.append("consumer group ").append(group).append(": ").append(inputTopic).append(" offsets ");
      List<String> parts = new ArrayList<>();
      new TreeMap<>(byPartition()).forEach((p, o) -> parts.add(p + "->" + o));
      sb.append(String.join(", ", parts)).append('\n');
      sb.append("internal topics to delete: ").append(internalTopics.isEmpty() ? "none" : internalTopics).append('\n');
      sb.append("local state to delete: ").append(Files.exists(stateDir) ? stateDir : "none (" + stateDir + ")");
      return sb.toString();
    }

    private Map<Integer, Long> byPartition() {
      Map<Integer, Long> m = new HashMap<>();
      offsets.forEach((tp, o) -> m.put(tp.partition(), o));
      return m;
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

  public StreamsReset(AppConfig cfg) {
    this.cfg = cfg;
    this.timeoutMs = cfg.getInt("startup.timeout.ms");
  }

  private Admin admin() {
    Properties ap = new Properties();
    ap.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
    ap.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
    ap.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(timeoutMs, 5000));
    cfg.streamsOverrides().forEach((k, v) -> {
      if (AdminClientConfig.configNames().contains(k)) {
        ap.put(k, v);
      }
    });
    return Admin.create(ap);
  }

  /** What {@link #apply} would do, to the earliest offsets ({@code to} null) or to an instant. */
  public Plan plan(Instant to) {
    String group = cfg.get("application.id");
    String input = cfg.get("topic.raw");
    try (Admin admin = admin()) {
      requireStopped(admin, group);
      TopicDescription topic;
      try {
        topic = get(admin.describeTopics(List.of(input)).allTopicNames()).get(input);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
          throw new ResetException("input topic " + input + " does not exist");
        }
        throw unreachable(e);
      }
      Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
      topic.partitions().forEach(p -> specs.put(new TopicPartition(input, p.partition()),
          to == null ? OffsetSpec.earliest() : OffsetSpec.forTimestamp(to.toEpochMilli())));
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> found = get(admin.listOffsets(specs).all());
      Map<TopicPartition, Long> offsets = new HashMap<>();
      List<TopicPartition> pastTheEnd = new ArrayList<>();
      found.forEach((tp, info) -> {
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
      List<String> internal = new ArrayList<>();
      for (String t : get(admin.listTopics().names())) {
        if (isInternalTopicOf(group, t)) {
          internal.add(t);
        }
      }
      internal.sort(null);
      return new Plan(group, input, offsets, internal, Path.of(cfg.get("state.dir")).resolve(group));
    } catch (ExecutionException e) {
      throw unreachable(e);
    }
  }

  /** Carries out a plan; checks again that the app is stopped. */
  public void apply(Plan plan) {
    try (Admin admin = admin()) {
      requireStopped(admin, plan.group());
      Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
      plan.offsets().forEach((tp, o) -> commit.put(tp, new OffsetAndMetadata(o)));
      get(admin.alterConsumerGroupOffsets(plan.group(), commit).all());
      if (!plan.internalTopics().isEmpty()) {
        get(admin.deleteTopics(plan.internalTopics()).all());
      }
    } catch (ExecutionException e) {
      throw new ResetException("reset of " + plan.group() + " failed: " + e.getCause().getMessage());
    }
    if (Files.exists(plan.stateDir())) {
      try {
        Utils.delete(plan.stateDir().toFile());
      } catch (IOException e) {
        throw new ResetException("cannot delete the local state " + plan.stateDir() + ": " + e.getMessage());
      }
    }
  }

  /** Changelog and repartition topics that Kafka Streams named for this application id. */
  static boolean isInternalTopicOf(String applicationId, String topic) {
    return topic.startsWith(applicationId + "-") && (topic.endsWith("-changelog") || topic.endsWith("-repartition"));
  }

  private void requireStopped(Admin admin, String group) throws ExecutionException {
    ConsumerGroupDescription d;
    try {
      d = get(admin.describeConsumerGroups(List.of(group)).all()).get(group);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof GroupIdNotFoundException) {
        return;
      }
      throw e;
    }
    Collection<?> members = d == null ? List.of() : d.members();
    if (!members.isEmpty()) {
      throw new ResetException("the application is still running: consumer group " + group + " has "
          + members.size() + " member(s); stop every instance, then reset");
    }
  }

  private <T> T get(org.apache.kafka.common.KafkaFuture<T> f) throws ExecutionException {
    try {
      return f.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ResetException("interrupted");
    } catch (TimeoutException e) {
      throw new ResetException("no answer from Kafka at " + cfg.bootstrapServers() + " within " + timeoutMs + " ms");
    }
  }

  private ResetException unreachable(ExecutionException e) {
    return new ResetException("cannot reach Kafka at " + cfg.bootstrapServers() + ": " + e.getCause().getMessage());
  }
}
