package io.symbolicate.app.reprocess;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.connectors.loader.LoadPacer;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The sends of one reprocessing pass: paced to the run's rate, counted as the broker answers
 * them (written or failed), the first failure kept for the report.
 */
final class PacedSends {
  private final KafkaProducer<byte[], byte[]> producer;
  private final Pacer pacer;
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicReference<Exception> firstFailure = new AtomicReference<>();

  PacedSends(KafkaProducer<byte[], byte[]> producer, Pacer pacer) {
    this.producer = producer;
    this.pacer = pacer;
  }

  /** Waits for the pacer, then sends; interrupted, the pass stops with a reason. */
  void send(String topic, long timestamp, byte[] key, byte[] value) {
    try {
      pacer.acquire();
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new ReprocessException("interrupted");
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

  /**
   * The producer of a pass's sends: idempotent, acks from all replicas, requests up to {@code
   * maxRequestBytes}.
   */
  static KafkaProducer<byte[], byte[]> producer(AppConfig cfg, int maxRequestBytes) {
    Properties p =
        KafkaProperties.client(cfg, ProducerConfig.configNames(), StreamsConfig.PRODUCER_PREFIX);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 20);
    p.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 256 << 10);
    p.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxRequestBytes);
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  static long writtenSoFar(PacedSends sends) {
    return sends == null ? 0 : sends.written();
  }

  /** At most {@code perSecond} events a second (0 or less: no limit), on an injected clock. */
  static final class Pacer {
    private final double perSecond;
    private final LongSupplier nanoTime;
    private final LoadPacer.Sleeper sleeper;
    private long start = Long.MIN_VALUE;
    private long count;

    Pacer(double perSecond, LongSupplier nanoTime, LoadPacer.Sleeper sleeper) {
      this.perSecond = perSecond;
      this.nanoTime = nanoTime;
      this.sleeper = sleeper;
    }

    /** Waits until the next event is due: the n-th at (n - 1) / perSecond after the first. */
    void acquire() throws InterruptedException {
      if (perSecond <= 0) {
        return;
      }
      long now = nanoTime.getAsLong();
      if (start == Long.MIN_VALUE) {
        start = now;
      }
      long due = start + (long) (count++ * 1e9 / perSecond);
      if (due > now) {
        sleeper.sleepNanos(due - now);
      }
    }
  }
}
