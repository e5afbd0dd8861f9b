package io.symbolicate.symbols.dotnet;

import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Portable PDB as a compact paged table: ranges keyed by {@code method row << 32 | IL offset}
 * (so a floor lookup finds the page of any frame), pages of at most {@link #ROWS_PER_PAGE} ranges
 * each carrying its own file names, and a header with the PDB's debug id and counts.
 */
public record DotnetTable(Header parsedHeader, byte[] header, List<TablePage> pages)
    implements CompactTable {
  public static final int FORMAT_VERSION = 2;

  /** Ranges per page: about 20 to 40 KB with the files a page names. */
  public static final int ROWS_PER_PAGE = 4096;

  static final byte[] MAGIC = {'P', 'P', 'D', 'T'};

  /**
   * The header: format version, the PDB's debug id, ranges, documents and pages, and whether the
   * PDB has Source Link rules (Symbolicator counts them as sources: {@code features.has_sources}).
   */
  public record Header(
      int formatVersion,
      String debugId,
      int rangeCount,
      int documentCount,
      int pageCount,
      boolean sourceLink) {
    byte[] encode() {
      TableBytes.Writer w = new TableBytes.Writer();
      for (byte b : MAGIC) {
        w.u8(b);
      }
      w.u8(TableKind.DOTNET.tag());
      w.varint(formatVersion);
      w.string(debugId);
      w.varint(rangeCount);
      w.varint(documentCount);
      w.varint(pageCount);
      w.u8(sourceLink ? 1 : 0);
      return w.toByteArray();
    }

    public static Header decode(byte[] bytes) {
      TableBytes.Reader r = new TableBytes.Reader(bytes);
      for (byte b : MAGIC) {
        if (r.u8() != b) {
          throw new PortablePdbException("not a .NET symbol table (bad magic)");
        }
      }
      if (r.u8() != TableKind.DOTNET.tag()) {
        throw new PortablePdbException("not a .NET symbol table (wrong kind)");
      }
      int version = r.bounded(Integer.MAX_VALUE, "format version");
      if (version != FORMAT_VERSION) {
        throw new PortablePdbException(
            "unsupported .NET table format version "
                + version
                + " (this build reads "
                + FORMAT_VERSION
                + ")");
      }
      String debugId = r.string();
      int ranges = r.bounded(Integer.MAX_VALUE, "range count");
      int documents = r.bounded(Integer.MAX_VALUE, "document count");
      int pages = r.bounded(Integer.MAX_VALUE, "page count");
      int sourceLink = r.u8();
      if (sourceLink > 1) {
        throw new PortablePdbException("bad Source Link flag " + sourceLink + " in .NET table");
      }
      return new Header(version, debugId, ranges, documents, pages, sourceLink == 1);
    }
  }

  @Override
  public TableKind kind() {
    return TableKind.DOTNET;
  }

  @Override
  public int formatVersion() {
    return FORMAT_VERSION;
  }

  /** The page key of a frame. */
  public static long key(int method, long ilOffset) {
    return ((long) method << 32) | (ilOffset & 0xffffffffL);
  }

  public static DotnetTable build(PortablePdb pdb) {
    return build(pdb, ROWS_PER_PAGE);
  }

  static DotnetTable build(PortablePdb pdb, int rowsPerPage) {
    PpdbLineTable lines = PpdbLineTable.build(pdb);
    SourceLinkMap links = sourceLinks(pdb);
    long[] keys = lines.keys();
    List<TablePage> pages = new ArrayList<>();
    for (int from = 0; from < keys.length; from += rowsPerPage) {
      int to = Math.min(keys.length, from + rowsPerPage);
      pages.add(new TablePage(keys[from], DotnetPage.encode(lines, from, to, links)));
    }
    Header h =
        new Header(
            FORMAT_VERSION,
            pdb.debugId(),
            keys.length,
            pdb.documentCount(),
            pages.size(),
            !links.isEmpty());
    return new DotnetTable(h, h.encode(), List.copyOf(pages));
  }

  /**
   * The PDB's Source Link rules; malformed Source Link JSON gives none rather than refusing the
   * PDB, whose lines are still good (the URLs are only reported).
   */
  private static SourceLinkMap sourceLinks(PortablePdb pdb) {
    try {
      return pdb.sourceLinks();
    } catch (PortablePdbException e) {
      return SourceLinkMap.parse(List.of());
    }
  }

  /**
   * This table with source pages after its own ({@code SourcePages}: their keys are above every
   * key of a .NET table, method rows being 24 bits); the header still counts its own pages.
   */
  public DotnetTable withSources(List<TablePage> sources) {
    List<TablePage> all = new ArrayList<>(pages.size() + sources.size());
    all.addAll(pages);
    all.addAll(sources);
    return new DotnetTable(parsedHeader, header, List.copyOf(all));
  }

  /** A frame's line from a page source (the store's, or the pages decoded in memory). */
  public static Optional<DotnetPage.Line> lookup(
      PageSource<DotnetPage> pages, int method, long ilOffset) {
    DotnetPage page = pages.floor(key(method, ilOffset));
    return page == null ? Optional.empty() : page.lookup(method, ilOffset);
  }

  /** All pages decoded up front, for the CLI and tests. */
  public PageSource<DotnetPage> inMemory() {
    return new InMemoryPageSource<>(pages, DotnetPage::decode);
  }
}
