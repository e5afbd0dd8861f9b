package io.symbolicate.api.symbols;

import io.symbolicate.connectors.loader.TablePublisher;
import io.symbolicate.connectors.loader.TableSink;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.store.TableReader;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TablePage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The API's table cache without Kafka ({@code serve}): the same records under the same keys as
 * the streams app's global store, in a RocksDB database on local disk, so it survives restarts.
 * A table's pages are written before its state in one batch. Safe for concurrent use.
 */
public final class LocalTableStore implements TableReader, TableSink, AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  private final Options options;
  private final RocksDB db;
  private final WriteOptions writeOptions = new WriteOptions();
  private volatile boolean closed;
  private final AvroSerde<ModuleState> stateSerde = WireSerdes.moduleState();

  public LocalTableStore(Path dir) {
    try {
      Files.createDirectories(dir);
      this.options = new Options().setCreateIfMissing(true);
      this.db = RocksDB.open(options, dir.toString());
    } catch (RocksDBException | java.io.IOException e) {
      throw new IllegalStateException(
          "cannot open the table cache in " + dir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public byte[] get(byte[] key) {
    try {
      return db.get(key);
    } catch (RocksDBException e) {
      throw new IllegalStateException("table cache read failed: " + e.getMessage(), e);
    }
  }

  @Override
  public ModuleState publishFound(ModuleRef ref, CompactTable table, String source, long now)
      throws Exception {
    long generation = now;
    List<Long> keys = new ArrayList<>(table.pages().size());
    try (WriteBatch batch = new WriteBatch()) {
      for (TablePage p : table.pages()) {
        keys.add(p.firstKey());
        batch.put(TableKeys.page(ref, generation, p.firstKey()), p.bytes());
      }
      ModuleState state = TablePublisher.foundState(ref, table, generation, keys, source, now);
      batch.put(TableKeys.state(ref), stateSerde.encode(state));
      db.write(writeOptions, batch);
      return state;
    }
  }

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
    ModuleState state =
        TablePublisher.negativeState(ref, status, formatVersion, message, source, now, retryAfter);
    db.put(writeOptions, TableKeys.state(ref), stateSerde.encode(state));
    return state;
  }

  @Override
  public void deletePages(ModuleRef ref, long generation, List<Long> pageKeys) throws Exception {
    try (WriteBatch batch = new WriteBatch()) {
      for (long k : pageKeys) {
        batch.delete(TableKeys.page(ref, generation, k));
      }
      db.write(writeOptions, batch);
    }
  }

  /** The stored state of a module, or null. */
  public ModuleState state(ModuleRef ref) {
    byte[] v = get(TableKeys.state(ref));
    if (v == null) {
      return null;
    }
    try {
      return stateSerde.decode(v);
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }

  /** Rewrites a module's state (e.g. its {@code last_used}). */
  public void putState(ModuleRef ref, ModuleState state) throws Exception {
    db.put(writeOptions, TableKeys.state(ref), stateSerde.encode(state));
  }

  /** Removes a module entirely: its pages and its state. */
  public void evict(ModuleRef ref, ModuleState state) throws Exception {
    deletePages(ref, state.getGeneration(), state.getPageKeys());
    db.delete(writeOptions, TableKeys.state(ref));
  }

  /**
   * Every module state in the store (a sweep's view). A module's state key sorts before its
   * pages, so after each module the scan seeks past its pages instead of reading them.
   */
  public java.util.Map<ModuleRef, ModuleState> states() {
    java.util.Map<ModuleRef, ModuleState> out = new java.util.HashMap<>();
    try (org.rocksdb.RocksIterator it = db.newIterator()) {
      it.seekToFirst();
      while (it.isValid()) {
        byte[] key = it.key();
        ModuleRef ref = TableKeys.moduleOf(key);
        if (TableKeys.isState(key)) {
          try {
            out.put(ref, stateSerde.decode(it.value()));
          } catch (java.io.IOException | RuntimeException e) {
            // unreadable (another format version): left alone, it counts as absent anyway
          }
        }
        it.seek(TableKeys.afterModule(ref));
      }
    }
    return out;
  }

  /** Whether the store is open (readiness of {@code serve}). */
  public boolean isOpen() {
    return !closed;
  }

  @Override
  public void close() {
    closed = true;
    db.close();
    writeOptions.close();
    options.close();
  }
}
