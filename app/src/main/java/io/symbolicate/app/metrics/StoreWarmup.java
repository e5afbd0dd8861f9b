package io.symbolicate.app.metrics;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Follows the warm-up of the symbol store (the global store materialised from
 * {@code symbols.tables}): install it with {@code KafkaStreams#setGlobalStateRestoreListener}
 * and feed it the client's state changes. Kafka Streams restores global stores before it first
 * reports RUNNING, so the store is warm once its restoration ended or the client ran.
 */
public final class StoreWarmup implements StateRestoreListener {
  private final String storeName;
  private final Set<TopicPartition> restoring = ConcurrentHashMap.newKeySet();
  private final AtomicLong restored = new AtomicLong();
  private volatile boolean restoreEnded;
  private volatile boolean ranOnce;

  /** @param storeName the store to follow (restorations of other stores are ignored) */
  public StoreWarmup(String storeName) {
    this.storeName = storeName;
  }

  /** Call from the client's state listener. */
  public void stateChanged(KafkaStreams.State now) {
    if (now == KafkaStreams.State.RUNNING) {
      ranOnce = true;
    }
  }

  public boolean warm() {
    return ranOnce || restoreEnded && restoring.isEmpty();
  }

  /** Whether the client has been RUNNING at least once (a later rebalance keeps the store). */
  public boolean ranOnce() {
    return ranOnce;
  }

  public long restoredRecords() {
    return restored.get();
  }

  public int restoringPartitions() {
    return restoring.size();
  }

  @Override
  public void onRestoreStart(
      TopicPartition tp, String store, long startingOffset, long endingOffset) {
    if (store.equals(storeName)) {
      restoring.add(tp);
    }
  }

  @Override
  public void onBatchRestored(
      TopicPartition tp, String store, long batchEndOffset, long numRestored) {
    if (store.equals(storeName)) {
      restored.addAndGet(numRestored);
    }
  }

  @Override
  public void onRestoreEnd(TopicPartition tp, String store, long totalRestored) {
    if (store.equals(storeName)) {
      restoring.remove(tp);
      restoreEnded = true;
    }
  }

  @Override
  public void onRestoreSuspended(TopicPartition tp, String store, long totalRestored) {
    if (store.equals(storeName)) {
      restoring.remove(tp);
    }
  }
}
