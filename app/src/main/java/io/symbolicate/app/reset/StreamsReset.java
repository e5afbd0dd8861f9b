package io.symbolicate.app.reset;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.topology.parking.ParkingProcessor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListStreamsGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

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
 * topics are left alone. A clean ({@link StreamsClean}) removes the stopped app instead.
 */
public final class StreamsReset {
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

  private final AppConfig cfg;
  private final StoppedApp app;

  public StreamsReset(AppConfig cfg) {
    this.cfg = cfg;
    this.app = new StoppedApp(cfg);
  }

  /**
   * What {@link #apply} would do, to the earliest offsets ({@code to} null) or to an instant.
   */
  public Plan plan(Instant to) {
    String input = cfg.get(ConfigKeys.TOPIC_RAW);
    try (Admin admin = app.admin()) {
      GroupKind kind = app.requireStopped(admin);
      TopicDescription topic;
      try {
        topic = app.get(admin.describeTopics(List.of(input)).allTopicNames()).get(input);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
          throw new ResetException("input topic " + input + " does not exist");
        }
        throw app.failed("describing " + input, e);
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
      app.get(admin.listOffsets(specs).all())
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
        app.get(admin.listOffsets(latest).all())
            .forEach((tp, info) -> offsets.put(tp, info.offset()));
      }
      Map<TopicPartition, Long> current = committed(admin, kind, input);

      List<String> internal = app.existingInternalTopics(app.get(admin.listTopics().names()));
      // events still parked at the stop live only in the changelogs about to go: start no later
      // than the first of them
      List<String> parkedLogs = app.parkedChangelogs(internal);
      firstParked(app.parkedKeys(admin, parkedLogs), input)
          .forEach((tp, first) -> offsets.computeIfPresent(tp, (k, o) -> Math.min(o, first)));
      return new Plan(app.appId(), input, current, offsets, internal, app.stateDir(), kind);
    } catch (ExecutionException e) {
      throw app.failed("planning the reset", e);
    }
  }

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
    StoppedApp.withStateLock(
        plan.stateDir(),
        () -> {
          try (Admin admin = app.admin()) {
            GroupKind kind = app.requireStopped(admin);
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            plan.offsets().forEach((tp, o) -> commit.put(tp, new OffsetAndMetadata(o)));
            if (kind == GroupKind.STREAMS) {
              app.get(admin.alterStreamsGroupOffsets(plan.group(), commit).all());
            } else {
              app.get(admin.alterConsumerGroupOffsets(plan.group(), commit).all());
            }
            app.deleteTopics(admin, plan.internalTopics());
          } catch (ExecutionException e) {
            throw app.failed("resetting " + plan.group() + " (running the reset again is safe)", e);
          }
          StoppedApp.deleteState(plan.stateDir(), true);
        });
  }

  private Map<TopicPartition, Long> committed(Admin admin, GroupKind kind, String input)
      throws ExecutionException {
    Map<TopicPartition, OffsetAndMetadata> all =
        switch (kind) {
          case NONE -> Map.of();
          case CLASSIC ->
              app.get(admin.listConsumerGroupOffsets(app.appId()).partitionsToOffsetAndMetadata());
          case STREAMS ->
              app.get(
                  admin
                      .listStreamsGroupOffsets(
                          Map.of(app.appId(), new ListStreamsGroupOffsetsSpec()))
                      .partitionsToOffsetAndMetadata(app.appId()));
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
}
