package io.symbolicate.testkit;

import org.apache.kafka.clients.admin.Admin;

/**
 * A real single-node KRaft broker on loopback that this process started: in this JVM
 * ({@link EmbeddedKafka}) or in a child JVM ({@link ChildProcessKafka}). What a harness needs of
 * either, so the same harness can run against both.
 */
public interface LocalKafka extends AutoCloseable {

  String bootstrapServers();

  /** Creates the topics that do not exist yet, with {@code partitions} partitions and one replica. */
  void createTopics(int partitions, String... names);

  Admin admin();

  /**
   * CPU time the broker has used so far, in nanoseconds, if it can be told apart from this
   * JVM's (a child process); -1 when it cannot (a broker in this JVM shares its threads' CPU).
   */
  default long brokerCpuNanos() {
    return -1;
  }

  /** Stops the broker and removes its data. */
  @Override
  void close();
}
