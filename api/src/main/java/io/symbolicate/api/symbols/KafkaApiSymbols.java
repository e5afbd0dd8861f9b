package io.symbolicate.api.symbols;

import io.symbolicate.api.ApiSymbols;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbolication.store.TableReader;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API inside {@code run}: reads the streams app's global store of {@code symbols.tables}
 * (an interactive query, safe for concurrent reads) and shares its page cache, so a module
 * loaded for the stream is warm for the API and vice versa. A module the store does not know is
 * requested on {@code symbols.requests}, where the loader picks it up.
 *
 * <p>Requests are sent by one thread of their own: a producer's {@code send} blocks (up to its
 * {@code max.block.ms}) while the broker is unreachable or its buffer is full, and an HTTP
 * handler that blocked would hold its admission permit past the request's deadline.
 */
public final class KafkaApiSymbols implements ApiSymbols {
  private static final Logger log = LoggerFactory.getLogger(KafkaApiSymbols.class);

  /** Requests waiting for the sender thread; beyond, they are dropped and asked for again later. */
  static final int OUTBOX = 1_000;

  private final TableReader tables;
  private final PageCache cache;
  private final Producer<byte[], byte[]> producer;
  private final String requestsTopic;
  private final AvroSerde<SymbolRequest> requestSerde = WireSerdes.symbolRequest();
  private final ModuleThrottle requests;
  private final ModuleThrottle touches;
  private final ThreadPoolExecutor sender;
  private final AtomicLong dropped = new AtomicLong();

  /**
   * @param tables the streams app's global store of {@code symbols.tables} (an interactive
   *     query: {@code topology.store.GlobalTablesQuery})
   * @param requestRetry a module is requested again at most this often (as the stream does)
   * @param touchInterval a module in use is reported to the loader at most this often
   */
  public KafkaApiSymbols(
      TableReader tables,
      PageCache cache,
      Producer<byte[], byte[]> producer,
      String requestsTopic,
      Duration requestRetry,
      Duration touchInterval) {
    this.touches = new ModuleThrottle(touchInterval.toMillis(), 10_000);
    this.tables = tables;
    this.cache = cache;
    this.producer = producer;
    this.requestsTopic = requestsTopic;
    this.requests = new ModuleThrottle(requestRetry.toMillis(), 10_000);
    this.sender =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(OUTBOX),
            r -> {
              Thread t = new Thread(r, "symbolicator-api-requests");
              t.setDaemon(true);
              return t;
            },
            (r, pool) -> ((Send) r).drop());
  }

  @Override
  public TableReader tables() {
    return tables;
  }

  @Override
  public PageCache pageCache() {
    return cache;
  }

  /** Returns at once: the request is sent by the sender thread. */
  /** A request names its module's platform, which .NET tables do not have yet. */
  @Override
  public boolean loads(TableKind kind) {
    return kind != TableKind.DOTNET;
  }

  @Override
  public void request(ModuleRef ref, RequestReason reason) {
    if (requests.tryAcquire(ref, System.currentTimeMillis())) {
      sender.execute(new Send(ref, reason, requests));
    }
  }

  /** Reports use to the loader (a {@code used} request), as the stream's parking does. */
  @Override
  public void used(ModuleRef ref) {
    if (touches.tryAcquire(ref, System.currentTimeMillis())) {
      sender.execute(new Send(ref, RequestReason.used, touches));
    }
  }

  /** Requests dropped so far because the sender thread was behind (or closed). */
  long dropped() {
    return dropped.get();
  }

  /**
   * One request to send. A request that cannot be sent is forgotten by its throttle, so it is
   * asked for again; meanwhile the module stays unknown and a request waiting for it is answered
   * at its deadline (not found: fetch_failed).
   */
  private final class Send implements Runnable {
    private final ModuleRef ref;
    private final RequestReason reason;
    private final ModuleThrottle sent;

    Send(ModuleRef ref, RequestReason reason, ModuleThrottle sent) {
      this.ref = ref;
      this.reason = reason;
      this.sent = sent;
    }

    @Override
    public void run() {
      long now = System.currentTimeMillis();
      SymbolRequest req =
          SymbolRequest.newBuilder()
              .setScope(ref.scope())
              .setPlatform(ref.platform())
              .setModuleKey(ref.key())
              .setReason(reason)
              .setRequestedAt(Instant.ofEpochMilli(now))
              .build();
      try {
        // blocks at most max.block.ms (metadata, a full buffer); a timeout comes to the callback
        producer.send(
            new ProducerRecord<>(
                requestsTopic,
                ref.toString().getBytes(StandardCharsets.UTF_8),
                requestSerde.encode(req)),
            (md, e) -> {
              if (e != null) {
                failed(e);
              }
            });
      } catch (RuntimeException e) {
        failed(e); // the producer is closed, or the record was refused before it was queued
      }
    }

    private void failed(Exception e) {
      log.warn("requesting {} failed: {}", ref, e.toString());
      sent.release(ref);
    }

    void drop() {
      sent.release(ref);
      if (dropped.getAndIncrement() % OUTBOX == 0 && !sender.isShutdown()) {
        log.warn(
            "{} symbol requests waiting to be sent (is the broker reachable?): requests are dropped "
                + "and asked for again later",
            OUTBOX);
      }
    }
  }

  @Override
  public void close() {
    sender.shutdownNow(); // interrupts a send blocked on metadata
    try {
      sender.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(5));
  }
}
