package io.symbolicate.app.reset;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKey;
import io.symbolicate.app.config.ConfigKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.TopicPartition;

/**
 * Cleans the stopped stream app away: removes it from the cluster, as streams-bootstrap's {@code
 * clean} does: its group, its internal topics and this machine's whole state of it, and on
 * request its output topics. It refuses while events are still parked (they would never come
 * out) unless told to discard them. The symbol topics, the loader's group and the input stay:
 * other instances, loaders and apps share them. ({@link StreamsReset} resets it instead.)
 */
public final class StreamsClean {
  /** What a clean does; {@link #apply} carries it out. */
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

  private final AppConfig cfg;
  private final StoppedApp app;

  public StreamsClean(AppConfig cfg) {
    this.cfg = cfg;
    this.app = new StoppedApp(cfg);
  }

  /**
   * What {@link #apply} would do; the output topics ({@code topic.symbolicated},
   * {@code topic.dlq}, {@code topic.missing}) are deleted only if {@code deleteOutputs}.
   */
  public CleanPlan plan(boolean deleteOutputs) {
    try (Admin admin = app.admin()) {
      GroupKind kind = app.requireStopped(admin);
      Set<String> existing = app.get(admin.listTopics().names());
      List<String> internal = app.existingInternalTopics(existing);
      int parked = app.parkedKeys(admin, app.parkedChangelogs(internal)).size();
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
      return new CleanPlan(
          app.appId(), kind, internal, outputs, deleteOutputs, parked, app.stateDir());
    } catch (ExecutionException e) {
      throw app.failed("planning the clean", e);
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
    for (TopicDescription d : app.get(admin.describeTopics(outputs).allTopicNames()).values()) {
      d.partitions().forEach(p -> parts.add(new TopicPartition(d.name(), p.partition())));
    }
    Map<Long, String> writers = new TreeMap<>(); // producer id -> a topic it wrote to
    for (Map.Entry<TopicPartition, DescribeProducersResult.PartitionProducerState> e :
        app.get(admin.describeProducers(parts).all()).entrySet()) {
      for (ProducerState ps : e.getValue().activeProducers()) {
        writers.putIfAbsent(ps.producerId(), e.getKey().topic());
      }
    }
    if (writers.isEmpty()) {
      return;
    }
    Map<Long, String> transactional = new HashMap<>();
    for (TransactionListing t :
        app.get(
            admin
                .listTransactions(new ListTransactionsOptions().filterProducerIds(writers.keySet()))
                .all())) {
      transactional.put(t.producerId(), t.transactionalId());
    }
    Pattern own =
        Pattern.compile(
            Pattern.quote(app.appId()) + "-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}-\\d+");
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
  public void apply(CleanPlan plan, boolean discardParked) {
    if (plan.parkedEvents() > 0 && !discardParked) {
      throw new ResetException(
          plan.parkedEvents()
              + " event(s) are still parked and would never come out: run the "
              + "app until they are released (park.timeout.ms), or discard them (--discard-parked)");
    }
    // an instance on this machine that is still restoring its global store holds the state
    // directory's lock before it joins the group: the lock is taken first, and held throughout
    StoppedApp.withStateLock(
        plan.stateDir(),
        () -> {
          try (Admin admin = app.admin()) {
            GroupKind kind = app.requireStopped(admin);
            // the broker refuses to delete a group with members: the real check against a start
            switch (kind) {
              case CLASSIC -> app.get(admin.deleteConsumerGroups(List.of(plan.group())).all());
              case STREAMS -> app.get(admin.deleteStreamsGroups(List.of(plan.group())).all());
              case NONE -> {}
            }
            List<String> topics = new ArrayList<>(plan.topicsToDelete());
            topics.retainAll(app.get(admin.listTopics().names()));
            if (plan.deleteOutputs()) {
              requireOwnOutputs(
                  admin, topics.stream().filter(plan.outputTopics()::contains).toList());
            }
            app.requireStopped(admin); // an instance elsewhere may have started since
            app.deleteTopics(admin, topics);
          } catch (ExecutionException e) {
            throw app.failed("cleaning " + plan.group() + " (running the clean again is safe)", e);
          }
          StoppedApp.deleteState(plan.stateDir(), false);
        });
  }
}
