package io.symbolicate.symbols.js;

import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import java.util.List;

/**
 * A sourcemap as a compact table. Key space (unsigned 64-bit):
 * mapping pages at {@code genLine << 32 | genColumn} of their first segment (bit 63 clear), so a
 * floor lookup on a position finds the one page holding its greatest-lower-bound segment;
 * source-content pages at {@code 1 << 63 | sourceIndex << 32 | firstLine}, fetched only for
 * context lines.
 */
public record JsTable(byte[] header, List<TablePage> pages) implements CompactTable {
  public static final int FORMAT_VERSION = 1;
  public static final long CONTENT_BIT = 1L << 63;

  @Override
  public TableKind kind() {
    return TableKind.JS;
  }

  @Override
  public int formatVersion() {
    return FORMAT_VERSION;
  }

  public static long positionKey(int line, int column) {
    return ((long) line << 32) | (column & 0xFFFFFFFFL);
  }

  public static long contentKey(int source, int line) {
    return CONTENT_BIT | ((long) source << 32) | (line & 0xFFFFFFFFL);
  }
}
