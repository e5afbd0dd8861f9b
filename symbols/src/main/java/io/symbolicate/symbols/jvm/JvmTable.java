package io.symbolicate.symbols.jvm;

import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import java.util.List;

/**
 * A mapping as a compact table: classes are keyed by a 64-bit hash of their obfuscated name and
 * split into pages by key range, so retracing a frame touches exactly one page.
 */
public record JvmTable(JvmHeader parsedHeader, byte[] header, List<TablePage> pages)
    implements CompactTable {
  public static final int FORMAT_VERSION = 1;

  @Override
  public TableKind kind() {
    return TableKind.JVM;
  }

  @Override
  public int formatVersion() {
    return FORMAT_VERSION;
  }

  /**
   * Page key of an obfuscated class name: String.hashCode (fixed by the JLS, cached on the
   * string) spread over 64 bits with the murmur3 finaliser so pages split evenly.
   */
  public static long classKey(String obfuscatedName) {
    return classKey(obfuscatedName.hashCode());
  }

  /** {@link #classKey(String)} from the name's {@code String.hashCode()}. */
  public static long classKey(int nameHash) {
    long h = nameHash & 0xffffffffL;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }
}
