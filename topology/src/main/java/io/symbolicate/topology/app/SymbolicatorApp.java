package io.symbolicate.topology.app;

import io.symbolicate.topology.SymbolicationTopology;
import io.symbolicate.topology.TopicNames;
import io.symbolicate.topology.TopologyConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the topology against a Kafka cluster: checks the cluster is reachable, creates missing
 * topics, and starts Kafka Streams with exactly-once v2 by default.
 */
public final class SymbolicatorApp implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SymbolicatorApp.class);

  private final KafkaStreams streams;
  private final CountDownLatch stopped = new CountDownLatch(1);

  private SymbolicatorApp(KafkaStreams streams) {
    this.streams = streams;
  }

  /** Starts the app; throws {@link StartupException} with a clear reason if it cannot. */
  public static SymbolicatorApp start(AppConfig cfg) {
    TopologyConfig tc = cfg.topologyConfig();
    Properties props = streamsProperties(cfg);
    checkClusterAndTopics(cfg, tc.topics());
    Topology topology = SymbolicationTopology.build(tc);
    KafkaStreams streams = new KafkaStreams(topology, props);
    SymbolicatorApp app = new SymbolicatorApp(streams);
    streams.setUncaughtExceptionHandler(ex -> {
      log.error("stream thread failed; replacing it", ex);
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    streams.setStateListener((now, before) -> {
      log.info("streams state {} -> {}", before, now);
      if (now == KafkaStreams.State.NOT_RUNNING || now == KafkaStreams.State.ERROR) {
        app.stopped.countDown();
      }
    });
    streams.start();
    return app;
  }

  public static Properties streamsProperties(AppConfig cfg) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, cfg.get("application.id"));
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, cfg.get("processing.guarantee"));
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, cfg.getInt("num.stream.threads"));
    p.put(StreamsConfig.STATE_DIR_CONFIG, cfg.get("state.dir"));
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
    // a dead letter carries the original record plus its reason, so it may exceed 1 MB
    p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), cfg.getInt("dlq.max.message.bytes"));
    cfg.streamsOverrides().forEach(p::put);
    return p;
  }

  private static void checkClusterAndTopics(AppConfig cfg, TopicNames topics) {
    int timeoutMs = cfg.getInt("startup.timeout.ms");
    Properties ap = new Properties();
    ap.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
    ap.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
    ap.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(timeoutMs, 5000));
    cfg.streamsOverrides().forEach((k, v) -> {
      if (AdminClientConfig.configNames().contains(k)) {
        ap.put(k, v);
      }
    });
    try (Admin admin = Admin.create(ap)) {
      Set<String> existing;
      try {
        existing = admin.listTopics().names().get(timeoutMs, TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException e) {
        throw new StartupException("cannot reach Kafka at " + cfg.bootstrapServers() + " within "
            + timeoutMs + " ms" + (e instanceof ExecutionException ? ": " + e.getCause().getMessage() : ""));
      }
      List<NewTopic> missing = new ArrayList<>();
      int partitions = cfg.getInt("topics.partitions");
      Optional<Short> rf = cfg.getInt("topics.replication.factor") < 0
          ? Optional.empty() : Optional.of((short) cfg.getInt("topics.replication.factor"));
      for (String t : topics.all()) {
        if (!existing.contains(t)) {
          NewTopic nt = new NewTopic(t, Optional.of(partitions), rf);
          if (t.equals(topics.dlq())) {
            nt.configs(Map.of("max.message.bytes", cfg.get("dlq.max.message.bytes")));
          }
          missing.add(nt);
        }
      }
      if (missing.isEmpty()) {
        return;
      }
      if (!cfg.getBoolean("topics.create")) {
        throw new StartupException("missing topics " + missing.stream().map(NewTopic::name).toList()
            + " and topics.create=false");
      }
      log.info("creating topics {}", missing.stream().map(NewTopic::name).toList());
      try {
        admin.createTopics(missing).all().get(timeoutMs, TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
          throw new StartupException("cannot create topics: " + e.getCause().getMessage());
        }
      } catch (TimeoutException e) {
        throw new StartupException("timed out creating topics " + missing);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StartupException("interrupted while starting");
    }
  }

  public KafkaStreams streams() {
    return streams;
  }

  /** Waits until the app reaches RUNNING; false on timeout or failure. */
  public boolean awaitRunning(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      KafkaStreams.State s = streams.state();
      if (s == KafkaStreams.State.RUNNING) {
        return true;
      }
      if (s == KafkaStreams.State.ERROR || s == KafkaStreams.State.NOT_RUNNING) {
        return false;
      }
      Thread.sleep(50);
    }
    return false;
  }

  /** Blocks until the streams client stops (error or close). */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  public boolean failed() {
    return streams.state() == KafkaStreams.State.ERROR;
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(30));
  }

  /**
   * Closes and leaves the consumer group, so a restarted or remaining instance takes over the
   * partitions at once instead of after the session timeout.
   */
  public void close(Duration timeout) {
    streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
        .withTimeout(timeout));
  }

  /** The app could not start; the message says why, for the user. */
  public static final class StartupException extends RuntimeException {
    public StartupException(String message) {
      super(message);
    }
  }
}
