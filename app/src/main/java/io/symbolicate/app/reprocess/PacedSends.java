package io.symbolicate.app.reprocess;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The sends of one reprocessing pass: paced to the run's rate, counted as the broker answers
 * them (written or failed), the first failure kept for the report.
 */
final class PacedSends {
  private final KafkaProducer<byte[], byte[]> producer;
  private final ModuleReprocessing.Pacer pacer;
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicReference<Exception> firstFailure = new AtomicReference<>();

  PacedSends(KafkaProducer<byte[], byte[]> producer, ModuleReprocessing.Pacer pacer) {
    this.producer = producer;
    this.pacer = pacer;
  }

  /** Waits for the pacer, then sends; interrupted, the pass stops with a reason. */
  void send(String topic, long timestamp, byte[] key, byte[] value) {
    try {
      pacer.acquire();
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new ModuleReprocessing.ReprocessException("interrupted");
    }
    producer.send(
        new ProducerRecord<>(topic, null, timestamp, key, value),
        (md, ex) -> {
          if (ex == null) {
            written.incrementAndGet();
          } else {
            failed.incrementAndGet();
            firstFailure.compareAndSet(null, ex);
          }
        });
  }

  long written() {
    return written.get();
  }

  long failed() {
    return failed.get();
  }

  Exception firstFailure() {
    return firstFailure.get();
  }
}
