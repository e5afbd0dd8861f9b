package io.symbolicate.connectors.loader;

import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TablePage;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes tables to {@code symbols.tables}: all records of a module go to one partition (chosen by
 * the module reference), pages first and the state record last, so a reader that sees the state
 * already has the pages. The state is mirrored to the small {@code symbols.index} topic.
 */
public final class TablePublisher implements TableSink, AutoCloseable {
  /** How long a replaced generation's pages outlive the state that replaces them. */
  static final long REPLACED_PAGES_DELAY_MS = 5_000;

  private static final Logger log = LoggerFactory.getLogger(TablePublisher.class);

  private final Map<Object, Runnable> pending = new ConcurrentHashMap<>();
  private final ScheduledExecutorService later =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "symbol-loader-page-deletions");
            t.setDaemon(true);
            return t;
          });
  private final Producer<byte[], byte[]> producer;
  private final String tablesTopic;
  private final String indexTopic;
  private final AvroSerde<ModuleState> stateSerde = WireSerdes.moduleState();

  public TablePublisher(Producer<byte[], byte[]> producer, String tablesTopic, String indexTopic) {
    this.producer = producer;
    this.tablesTopic = tablesTopic;
    this.indexTopic = indexTopic;
  }

  private int partition(ModuleRef ref) {
    int n = producer.partitionsFor(tablesTopic).size();
    return Utils.toPositive(Utils.murmur2(ref.toString().getBytes(StandardCharsets.UTF_8))) % n;
  }

  /** Publishes a found table; returns its state. Blocks until the broker acknowledged it. */
  @Override
  public ModuleState publishFound(ModuleRef ref, CompactTable table, String source, long now)
      throws Exception {
    return publishFound(ref, table, source, now, LoadPacer.unpaced());
  }

  /**
   * Publishes a found table, pacing between pages: the send compresses on this thread, and the
   * broker and every instance's global thread then store the page, so a paced send rate keeps
   * that work spread out too.
   */
  @Override
  public ModuleState publishFound(
      ModuleRef ref, CompactTable table, String source, long now, LoadPacer pacer)
      throws Exception {
    long generation = now;
    int partition = partition(ref);
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    List<Long> keys = new ArrayList<>(table.pages().size());
    for (TablePage p : table.pages()) {
      keys.add(p.firstKey());
      sent.add(
          producer.send(
              new ProducerRecord<>(
                  tablesTopic,
                  partition,
                  TableKeys.page(ref, generation, p.firstKey()),
                  p.bytes())));
      pacer.pace();
    }
    ModuleState state = foundState(ref, table, generation, keys, source, now);
    await(sent);
    publishState(ref, state);
    return state;
  }

  /** Publishes a negative state (missing, malformed, fetch failed). */
  @Override
  public ModuleState publishNegative(
      ModuleRef ref,
      TableStatus status,
      int formatVersion,
      String message,
      String source,
      long now,
      long retryAfter)
      throws Exception {
    ModuleState state = negativeState(ref, status, formatVersion, message, source, now, retryAfter);
    publishState(ref, state);
    return state;
  }

  /** Writes the state to the tables topic (for the stores) and the index topic (for loaders). */
  public void publishState(ModuleRef ref, ModuleState state) throws Exception {
    byte[] bytes = stateSerde.encode(state);
    await(
        List.of(
            producer.send(
                new ProducerRecord<>(tablesTopic, partition(ref), TableKeys.state(ref), bytes)),
            producer.send(
                new ProducerRecord<>(
                    indexTopic, ref.toString().getBytes(StandardCharsets.UTF_8), bytes))));
  }

  /** Removes a module's state (stores then see it as unknown), e.g. before reloading an upload. */
  public void forgetState(ModuleRef ref) throws Exception {
    await(
        List.of(
            producer.send(
                new ProducerRecord<>(tablesTopic, partition(ref), TableKeys.state(ref), null))));
  }

  /**
   * Tombstones the pages of a replaced generation, {@link #REPLACED_PAGES_DELAY_MS} after the
   * state that replaces them: a stream task reuses a found state it read for a moment (200 ms),
   * and pages deleted at once would be gone under it (frames of a found module without symbols).
   * {@link #close} writes what is still waiting.
   */
  @Override
  public void deletePages(ModuleRef ref, long generation, List<Long> pageKeys) {
    Object token = new Object();
    Runnable delete =
        () -> {
          if (pending.remove(token) == null) {
            return; // written already (close)
          }
          try {
            tombstonePages(ref, generation, pageKeys);
          } catch (Exception e) {
            log.warn(
                "deleting the replaced pages of {} (generation {}) failed; they stay until the module is evicted",
                ref,
                generation,
                e);
          }
        };
    pending.put(token, delete);
    try {
      later.schedule(delete, REPLACED_PAGES_DELAY_MS, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      delete.run(); // closing
    }
  }

  /** Writes the deletions still waiting, and stops the timer; the producer must still be open. */
  public void close() {
    later.shutdownNow();
    for (Runnable r : new ArrayList<>(pending.values())) {
      r.run();
    }
  }

  /** Tombstones the pages of one generation, now. */
  private void tombstonePages(ModuleRef ref, long generation, List<Long> pageKeys)
      throws Exception {
    int partition = partition(ref);
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    for (long k : pageKeys) {
      sent.add(
          producer.send(
              new ProducerRecord<>(
                  tablesTopic, partition, TableKeys.page(ref, generation, k), null)));
    }
    await(sent);
  }

  /** Removes a module entirely: pages, state and index entry. */
  public void evict(ModuleRef ref, ModuleState state) throws Exception {
    tombstonePages(ref, state.getGeneration(), state.getPageKeys());
    await(
        List.of(
            producer.send(
                new ProducerRecord<>(tablesTopic, partition(ref), TableKeys.state(ref), null)),
            producer.send(
                new ProducerRecord<>(
                    indexTopic, ref.toString().getBytes(StandardCharsets.UTF_8), null))));
  }

  private static void await(List<Future<RecordMetadata>> futures) throws Exception {
    for (Future<RecordMetadata> f : futures) {
      try {
        f.get();
      } catch (ExecutionException e) {
        throw e.getCause() instanceof Exception ex ? ex : e;
      }
    }
  }

  /** The state record of a found table (the same for every {@link TableSink}). */
  public static ModuleState foundState(
      ModuleRef ref,
      CompactTable table,
      long generation,
      List<Long> pageKeys,
      String source,
      long now) {
    return ModuleState.newBuilder()
        .setModule(ref.toString())
        .setStatus(TableStatus.found)
        .setFormatVersion(table.formatVersion())
        .setGeneration(generation)
        .setHeader(ByteBuffer.wrap(table.header()))
        .setPageCount(table.pages().size())
        .setPageKeys(pageKeys)
        .setTableBytes(table.encodedSize())
        .setSource(source)
        .setMessage(null)
        .setUpdatedAt(Instant.ofEpochMilli(now))
        .setLastUsed(Instant.ofEpochMilli(now))
        .setRetryAfter(null)
        .build();
  }

  /** The state record of a negative answer (the same for every {@link TableSink}). */
  public static ModuleState negativeState(
      ModuleRef ref,
      TableStatus status,
      int formatVersion,
      String message,
      String source,
      long now,
      long retryAfter) {
    return ModuleState.newBuilder()
        .setModule(ref.toString())
        .setStatus(status)
        .setFormatVersion(formatVersion)
        .setGeneration(0)
        .setHeader(null)
        .setPageCount(0)
        .setPageKeys(List.of())
        .setTableBytes(0)
        .setSource(source)
        .setMessage(message)
        .setUpdatedAt(Instant.ofEpochMilli(now))
        .setLastUsed(null)
        .setRetryAfter(Instant.ofEpochMilli(retryAfter))
        .build();
  }
}
