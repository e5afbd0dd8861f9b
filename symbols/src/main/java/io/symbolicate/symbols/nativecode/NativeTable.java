package io.symbolicate.symbols.nativecode;

import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import java.util.List;

/** A Breakpad symbol file converted to the native compact table (header + address pages). */
public final class NativeTable implements CompactTable {
  private final NativeHeader header;
  private final byte[] headerBytes;
  private final List<TablePage> pages;

  public NativeTable(NativeHeader header, List<TablePage> pages) {
    this.header = header;
    this.headerBytes = header.encode();
    this.pages = List.copyOf(pages);
  }

  public NativeHeader nativeHeader() {
    return header;
  }

  @Override
  public TableKind kind() {
    return TableKind.NATIVE;
  }

  @Override
  public int formatVersion() {
    return header.formatVersion();
  }

  @Override
  public byte[] header() {
    return headerBytes.clone();
  }

  @Override
  public List<TablePage> pages() {
    return pages;
  }
}
