package io.symbolicate.symbols.table;

import java.util.List;

/**
 * A debug file converted into our own versioned binary format: a small header and pages that
 * decode independently. This is what the loader publishes and the store materialises; every
 * platform engine produces one.
 */
public interface CompactTable {

  /** Which engine made the table; part of the header so a store can dispatch on it. */
  TableKind kind();

  /** Format version of the pages and header. */
  int formatVersion();

  /** Encoded header (module identity, counts, flags). Small: well under a Kafka record. */
  byte[] header();

  /** Pages sorted by unsigned {@link TablePage#firstKey()}. */
  List<TablePage> pages();

  /** Total encoded size in bytes (header plus pages). */
  default long encodedSize() {
    long n = header().length;
    for (TablePage p : pages()) {
      n += p.bytes().length;
    }
    return n;
  }
}
