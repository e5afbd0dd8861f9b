package io.symbolicate.symbols.sources;

import io.symbolicate.schema.AvroSetup;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A table's sources as pages beside its own (the native table's, or any other kind's), in a key
 * range no lookup of the table reaches: from {@link #BASE_KEY} ({@code 0xFFFFFFFFFFF00000}, the
 * top MiB of a 64-bit address space, which no code is mapped into) the directory, then the
 * chunks of ~64 KB of lines, one key each. Lines are stored as context lines show them (long
 * ones cut, {@link ContextLines}), so a minified file costs a few KB.
 */
public final class SourcePages {
  public static final long BASE_KEY = 0xFFFF_FFFF_FFF0_0000L;

  /** Lines per chunk until its text reaches this size. */
  static final int CHUNK_BYTES = 64 << 10;

  /** The directory stays below the largest record a table page may be (3 MiB). */
  static final int MAX_DIRECTORY_BYTES = 2 << 20;

  /** Pages after the directory: the key range's size. */
  static final int MAX_CHUNKS = (1 << 20) - 1;

  static final byte DIRECTORY = 'D';
  static final byte CHUNK = 'C';

  static {
    // the directory builds Avro Utf8s, which read Avro's decoding limits once: ours first
    AvroSetup.ensure();
  }

  private SourcePages() {}

  /** Whether a table key is one of the sources' (a lookup of the table's own must not reach it). */
  public static boolean isSourceKey(long key) {
    return Long.compareUnsigned(key, BASE_KEY) >= 0;
  }

  /**
   * The pages of {@code files} (sorted by key: the directory first), at most {@code maxBytes} of
   * them; files past a limit are left out and named in {@code skipped}. Empty when no file fits.
   */
  public static List<TablePage> pages(List<SourceFile> files, long maxBytes, List<String> skipped) {
    List<SourceFile> sorted = new ArrayList<>(files);
    sorted.sort(Comparator.comparing(SourcePages::name));
    List<SourcePage.FileEntry> entries = new ArrayList<>();
    List<byte[]> chunks = new ArrayList<>();
    long total = 0;
    long dirBytes = 16;
    for (SourceFile f : sorted) {
      String name = name(f);
      String[] lines = ContextLines.split(f.text());
      List<byte[]> own = new ArrayList<>();
      List<Integer> firstLines = new ArrayList<>();
      long ownBytes = 0;
      int i = 0;
      while (i < lines.length) {
        int from = i;
        int size = 0;
        while (i < lines.length && (i == from || size < CHUNK_BYTES)) {
          size += lines[i].length() * 3 + 4;
          i++;
        }
        byte[] chunk = chunk(from + 1, lines, from, i);
        own.add(chunk);
        firstLines.add(from + 1);
        ownBytes += chunk.length;
      }
      long entryBytes = 32 + name.length() * 3L + 4L * firstLines.size();
      if (chunks.size() + own.size() > MAX_CHUNKS
          || total + ownBytes + dirBytes + entryBytes > maxBytes
          || dirBytes + entryBytes > MAX_DIRECTORY_BYTES) {
        skipped.add(name + ": over the sources' limit of the table");
        continue;
      }
      entries.add(
          new SourcePage.FileEntry(
              name,
              f.debugId(),
              chunks.size(),
              lines.length,
              firstLines.stream().mapToInt(Integer::intValue).toArray()));
      chunks.addAll(own);
      total += ownBytes;
      dirBytes += entryBytes;
    }
    if (entries.isEmpty()) {
      return List.of();
    }
    List<TablePage> pages = new ArrayList<>(chunks.size() + 1);
    pages.add(new TablePage(BASE_KEY, directory(entries)));
    for (int c = 0; c < chunks.size(); c++) {
      pages.add(new TablePage(BASE_KEY + 1 + c, chunks.get(c)));
    }
    return pages;
  }

  private static String name(SourceFile f) {
    return f.path() != null ? f.path() : f.url();
  }

  private static byte[] directory(List<SourcePage.FileEntry> entries) {
    try {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(b);
      out.writeByte(DIRECTORY);
      out.writeInt(entries.size());
      for (SourcePage.FileEntry e : entries) {
        writeString(out, e.path());
        writeString(out, e.debugId() == null ? "" : e.debugId());
        out.writeInt(e.firstPage());
        out.writeInt(e.lineCount());
        out.writeInt(e.firstLines().length);
        for (int l : e.firstLines()) {
          out.writeInt(l);
        }
      }
      return b.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] chunk(int firstLine, String[] lines, int from, int to) {
    try {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(b);
      out.writeByte(CHUNK);
      out.writeInt(firstLine);
      out.writeInt(to - from);
      for (int i = from; i < to; i++) {
        writeString(out, lines[i]);
      }
      return b.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  /** Decodes a stored source page; {@link SourcePageException} when it is not one. */
  public static SourcePage decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    try {
      byte tag = b.get();
      if (tag == DIRECTORY) {
        int n = count(b, 12);
        List<SourcePage.FileEntry> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          String path = readString(b);
          String id = readString(b);
          int firstPage = b.getInt();
          int lineCount = b.getInt();
          int chunks = count(b, 4);
          int[] firstLines = new int[chunks];
          for (int c = 0; c < chunks; c++) {
            firstLines[c] = b.getInt();
          }
          if (firstPage < 0 || lineCount < 0) {
            throw new SourcePageException("negative page or line count in a source directory");
          }
          entries.add(
              new SourcePage.FileEntry(
                  path, id.isEmpty() ? null : id, firstPage, lineCount, firstLines));
        }
        return new SourcePage.Directory(entries);
      }
      if (tag == CHUNK) {
        int first = b.getInt();
        int n = count(b, 4);
        SourceLine[] lines = new SourceLine[n];
        long heap = 64;
        for (int i = 0; i < n; i++) {
          lines[i] = SourceLine.of(readString(b));
          heap += lines[i].heapBytes();
        }
        return new SourcePage.Chunk(first, lines, heap);
      }
      throw new SourcePageException("not a source page (tag " + tag + ")");
    } catch (BufferUnderflowException e) {
      throw new SourcePageException("truncated source page");
    }
  }

  /** A count, refused when its items (each at least {@code minBytes}) cannot fit what is left. */
  private static int count(ByteBuffer b, int minBytes) {
    int n = b.getInt();
    if (n < 0 || (long) n * minBytes > b.remaining()) {
      throw new SourcePageException("count " + n + " past the end of a source page");
    }
    return n;
  }

  private static String readString(ByteBuffer b) {
    int n = count(b, 1);
    String s = new String(b.array(), b.position(), n, StandardCharsets.UTF_8);
    b.position(b.position() + n);
    return s;
  }

  /**
   * The table's own pages of a table that carries sources: a key in the sources' range floors to
   * the last page of its own, as it would in the table without them.
   */
  public static <P> PageSource<P> belowSources(PageSource<P> pages) {
    return key -> pages.floor(isSourceKey(key) ? BASE_KEY - 1 : key);
  }

  /** Whether a table's sorted page keys (unsigned) include sources. */
  public static boolean hasSources(long lastPageKey) {
    return lastPageKey == BASE_KEY || isSourceKey(lastPageKey);
  }

  /** The directory of a table's sources, or null when it has none. */
  public static SourcePage.Directory directory(PageSource<SourcePage> pages) {
    return pages.floor(BASE_KEY) instanceof SourcePage.Directory d ? d : null;
  }

  /**
   * The context of 1-based {@code line} of {@code path} ({@code n} lines before and after), or
   * null: no sources, no such file or line.
   */
  public static SourceContext context(PageSource<SourcePage> pages, String path, int line, int n) {
    SourcePage.Directory dir = directory(pages);
    if (dir == null || path == null) {
      return null;
    }
    SourcePage.FileEntry f = dir.byPath(path);
    return f == null ? null : context(pages, f, line, n);
  }

  /**
   * The context of 1-based {@code line} of {@code path} (a frame's file as it carries it) in the
   * sources of {@code dir}, the {@link #directory} of {@code pages}; null for no such file or line.
   */
  public static SourceContext context(
      SourcePage.Directory dir, PageSource<SourcePage> pages, CharSequence path, int line, int n) {
    SourcePage.FileEntry f = dir.byPath(path);
    return f == null ? null : context(pages, f, line, n);
  }

  /** The context of a line of a file of the directory, or null. */
  public static SourceContext context(
      PageSource<SourcePage> pages, SourcePage.FileEntry f, int line, int n) {
    if (line < 1 || line > f.lineCount() || n < 0 || f.firstLines().length == 0) {
      return null;
    }
    int from = Math.max(1, line - n);
    int to = Math.min(f.lineCount(), line + n);
    SourcePage.Chunk own = chunkOf(pages, f, line);
    if (own == null) {
      return null;
    }
    int base = own.firstLine();
    if (from >= base && to < base + own.lines().length) {
      // the common case: the whole context in the line's chunk, viewed where it is
      return new SourceContext(own.lines(), from - base, line - base, to - base + 1);
    }
    CharSequence[] out = new CharSequence[to - from + 1];
    SourcePage.Chunk chunk = null;
    for (int l = from; l <= to; l++) {
      if (chunk == null || l >= chunk.firstLine() + chunk.lines().length || l < chunk.firstLine()) {
        int c = f.chunkOf(l);
        long page = (long) f.firstPage() + c;
        if (c < 0 || page >= MAX_CHUNKS) {
          return null;
        }
        if (!(pages.floor(BASE_KEY + 1 + page) instanceof SourcePage.Chunk ch)
            || l < ch.firstLine()
            || l >= ch.firstLine() + ch.lines().length) {
          return null; // the directory and its chunks disagree: no context rather than a wrong one
        }
        chunk = ch;
      }
      out[l - from] = chunk.lines()[l - chunk.firstLine()];
    }
    return new SourceContext(out, 0, line - from, out.length);
  }

  /** The chunk holding {@code line} of the file, or null when the pages disagree. */
  private static SourcePage.Chunk chunkOf(
      PageSource<SourcePage> pages, SourcePage.FileEntry f, int line) {
    int c = f.chunkOf(line);
    long page = (long) f.firstPage() + c;
    if (c < 0 || page >= MAX_CHUNKS) {
      return null;
    }
    return pages.floor(BASE_KEY + 1 + page) instanceof SourcePage.Chunk ch
            && line >= ch.firstLine()
            && line < ch.firstLine() + ch.lines().length
        ? ch
        : null;
  }
}
