package io.symbolicate.symbols.nativecode;

import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import java.util.ArrayList;
import java.util.List;

/** A Breakpad symbol file converted to the native compact table (header + address pages). */
public final class NativeTable implements CompactTable {
  private final NativeHeader header;
  private final byte[] headerBytes;
  private final List<TablePage> pages;
  private final int sourcePages;

  public NativeTable(NativeHeader header, List<TablePage> pages) {
    this(header, pages, 0);
  }

  private NativeTable(NativeHeader header, List<TablePage> pages, int sourcePages) {
    this.header = header;
    this.headerBytes = header.encode();
    this.pages = List.copyOf(pages);
    this.sourcePages = sourcePages;
  }

  /**
   * This table with source pages after its own ({@code SourcePages}: keys above every page of
   * its own, which the caller checked).
   */
  public NativeTable withSources(List<TablePage> sources) {
    List<TablePage> all = new ArrayList<>(pages.size() + sources.size());
    all.addAll(pages);
    all.addAll(sources);
    return new NativeTable(header, all, sourcePages + sources.size());
  }

  /** The table's own pages, without the source pages after them. */
  public List<TablePage> nativePages() {
    return pages.subList(0, pages.size() - sourcePages);
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
