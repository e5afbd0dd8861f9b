package io.symbolicate.connectors.loader;

import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import java.util.List;

/**
 * Where the loader's answers go: {@code symbols.tables} through Kafka ({@link TablePublisher})
 * or a local on-disk store (the API's {@code serve} mode). Same keys and records either way.
 */
public interface TableSink {

  /**
   * The most bytes one page (or header) may have: well under the 4 MB that the loader's producer
   * sends and the created {@code symbols.tables} topic takes (key, headers and the batch need room).
   */
  int MAX_PAGE_BYTES = 3 << 20;

  /** Writes a found table, pages before the state; returns the state. */
  ModuleState publishFound(ModuleRef ref, CompactTable table, String source, long now)
      throws Exception;

  /** As {@link #publishFound(ModuleRef, CompactTable, String, long)}, pacing between pages. */
  default ModuleState publishFound(
      ModuleRef ref, CompactTable table, String source, long now, LoadPacer pacer)
      throws Exception {
    return publishFound(ref, table, source, now);
  }

  /** Writes a negative state (missing, malformed, fetch failed). */
  ModuleState publishNegative(
      ModuleRef ref,
      TableStatus status,
      int formatVersion,
      String message,
      String source,
      long now,
      long retryAfter)
      throws Exception;

  /** Removes the pages of one (replaced) generation. */
  void deletePages(ModuleRef ref, long generation, List<Long> pageKeys) throws Exception;
}
