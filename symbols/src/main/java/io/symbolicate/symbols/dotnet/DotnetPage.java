package io.symbolicate.symbols.dotnet;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One page of a .NET table: a run of (method row, IL offset) ranges in key order, each with its
 * line, column and file, and the page's own file table (name, language, Source Link URL), so a page decodes
 * alone. A lookup takes the range at the key or the last before it in the same method, as {@link
 * PpdbLineTable} does.
 */
public final class DotnetPage {
  /** Languages as stored: an index into this list. */
  static final List<String> LANGUAGES = List.of("unknown", "csharp", "fsharp", "visualbasic");

  private final String[] files;
  private final String[] languages;
  private final String[] sourceLinks;
  private final long[] keys;
  private final int[] lines;
  private final int[] columns;
  private final int[] fileIndex;

  private DotnetPage(
      String[] files,
      String[] languages,
      String[] sourceLinks,
      long[] keys,
      int[] lines,
      int[] columns,
      int[] fileIndex) {
    this.files = files;
    this.languages = languages;
    this.sourceLinks = sourceLinks;
    this.keys = keys;
    this.lines = lines;
    this.columns = columns;
    this.fileIndex = fileIndex;
  }

  /**
   * The answer of a page lookup: file name, its language, line (0: hidden), column, and the URL
   * the PDB's Source Link maps the file to (null: none; reported, never fetched).
   */
  public record Line(String file, String language, int line, int column, String sourceLink) {}

  /**
   * Rows {@code from..to-1} of the line table as page bytes; each file with its Source Link URL
   * resolved now, so a lookup needs no rules.
   */
  static byte[] encode(PpdbLineTable table, int from, int to, SourceLinkMap links) {
    Map<Document, Integer> local = new LinkedHashMap<>();
    for (int i = from; i < to; i++) {
      local.putIfAbsent(table.document(i), local.size());
    }
    TableBytes.Writer w = new TableBytes.Writer();
    w.varint(local.size());
    for (Document d : local.keySet()) {
      w.string(d.name());
      w.u8(Math.max(0, LANGUAGES.indexOf(d.language())));
      w.string(links.resolve(d.name()).orElse(""));
    }
    w.varint(to - from);
    long[] keys = table.keys();
    long prevMethod = 0;
    long prevIl = 0;
    for (int i = from; i < to; i++) {
      long method = keys[i] >>> 32;
      long il = keys[i] & 0xffffffffL;
      w.varint(method - prevMethod);
      w.varint(method == prevMethod ? il - prevIl : il);
      w.varint(table.line(i));
      w.varint(table.column(i));
      w.varint(local.get(table.document(i)));
      prevMethod = method;
      prevIl = il;
    }
    return w.toByteArray();
  }

  /** Decodes a page; a page that is cut, lies about a count or is out of order is refused. */
  public static DotnetPage decode(byte[] bytes) {
    TableBytes.Reader r = new TableBytes.Reader(bytes);
    int fileCount = r.bounded(r.remaining() / 2, "file count");
    String[] files = new String[fileCount];
    String[] languages = new String[fileCount];
    String[] sourceLinks = new String[fileCount];
    for (int i = 0; i < fileCount; i++) {
      files[i] = r.string();
      int lang = r.u8();
      if (lang >= LANGUAGES.size()) {
        throw new PortablePdbException("table page language " + lang);
      }
      languages[i] = LANGUAGES.get(lang);
      String link = r.string();
      sourceLinks[i] = link.isEmpty() ? null : link;
    }
    int rows = r.bounded(r.remaining() / 5, "row count");
    long[] keys = new long[rows];
    int[] lines = new int[rows];
    int[] columns = new int[rows];
    int[] fileIndex = new int[rows];
    long method = 0;
    long il = 0;
    for (int i = 0; i < rows; i++) {
      long dm = r.bounded(MetadataTables.MAX_ROWS, "method delta");
      long v = r.bounded(0xffffffffL, "IL offset");
      if (dm == 0 && i > 0) {
        il += v;
      } else {
        il = v;
      }
      method += dm;
      if (method > MetadataTables.MAX_ROWS || il > 0xffffffffL || (i > 0 && dm == 0 && v == 0)) {
        throw new PortablePdbException("table page row " + i + " is out of order or range");
      }
      keys[i] = (method << 32) | il;
      lines[i] = r.bounded(0x1fffffff, "line");
      columns[i] = r.bounded(0xffff, "column");
      fileIndex[i] = r.bounded(fileCount - 1L, "file index");
    }
    if (!r.atEnd()) {
      throw new PortablePdbException("table page has " + r.remaining() + " bytes after its rows");
    }
    return new DotnetPage(files, languages, sourceLinks, keys, lines, columns, fileIndex);
  }

  public int size() {
    return keys.length;
  }

  /** The line of {@code method} at {@code ilOffset} if this page (the floor page) holds it. */
  public Optional<Line> lookup(int method, long ilOffset) {
    if (method < 1 || ilOffset < 0 || ilOffset > 0xffffffffL) {
      return Optional.empty();
    }
    int i = Arrays.binarySearch(keys, ((long) method << 32) | ilOffset);
    if (i < 0) {
      i = -i - 2;
      if (i < 0 || (keys[i] >>> 32) != method) {
        return Optional.empty();
      }
    }
    int f = fileIndex[i];
    return Optional.of(new Line(files[f], languages[f], lines[i], columns[i], sourceLinks[f]));
  }
}
