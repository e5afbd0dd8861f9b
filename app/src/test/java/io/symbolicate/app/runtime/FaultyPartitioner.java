package io.symbolicate.app.runtime;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.utils.Utils;

/**
 * A producer partitioner that fails one send, the {@value #AFTER}-th record a producer of this
 * JVM partitions, inside the transaction that already sent the records before it: the fault
 * Kafka's own EosIntegrationTest injects in a processor. Otherwise it partitions keyed records as
 * the producer's default does (murmur2 of the key), so outputs land where they would anyway.
 * Records sent to an explicit partition (changelogs) never reach a partitioner.
 */
public final class FaultyPartitioner implements Partitioner {
  /** Producer setting: the record to fail at, counted over every producer of the JVM. */
  public static final String AFTER = "test.fault.after.records";

  private static final AtomicInteger PARTITIONED = new AtomicInteger();
  private static volatile int failAt = -1;
  private static final AtomicInteger FAILURES = new AtomicInteger();

  @Override
  public void configure(Map<String, ?> configs) {
    Object after = configs.get(AFTER);
    if (after != null) {
      failAt = Integer.parseInt(after.toString());
    }
  }

  @Override
  public int partition(
      String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
    if (PARTITIONED.incrementAndGet() == failAt) {
      FAILURES.incrementAndGet();
      throw new KafkaException("injected failure inside a transaction, record " + failAt);
    }
    int n = cluster.partitionsForTopic(topic).size();
    return keyBytes == null ? 0 : Utils.toPositive(Utils.murmur2(keyBytes)) % n;
  }

  /** How many failures were injected. */
  static int failures() {
    return FAILURES.get();
  }

  @Override
  public void close() {}
}
