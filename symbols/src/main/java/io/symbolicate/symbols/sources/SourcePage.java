package io.symbolicate.symbols.sources;

import io.symbolicate.symbols.table.HeapSized;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.util.Utf8;

/** A decoded page of a table's sources ({@link SourcePages}): the directory or a chunk of lines. */
public sealed interface SourcePage extends HeapSized {

  /**
   * One file: its path (or URL), the debug id its headers named, where its chunks start (page
   * number after the directory), how many lines it has and the first line of each chunk.
   */
  record FileEntry(String path, String debugId, int firstPage, int lineCount, int[] firstLines) {
    /** Index of the chunk holding 1-based {@code line}. */
    int chunkOf(int line) {
      int i = Arrays.binarySearch(firstLines, line);
      return i >= 0 ? i : -i - 2;
    }
  }

  /** Every file of the table's sources, found by path (exact, then normalised) or debug id. */
  final class Directory implements SourcePage {
    private final List<FileEntry> files;
    private final Map<String, FileEntry> byPath = new HashMap<>();
    // the same by the path's UTF-8 bytes: a frame's file as a page's Utf8 (its hash kept with
    // it) is found without a String made per frame
    private final Map<Utf8, FileEntry> byPathBytes = new HashMap<>();
    private final Map<String, FileEntry> byNormalPath = new HashMap<>();
    private final Map<String, FileEntry> byDebugId = new HashMap<>();
    private final long heapBytes;

    Directory(List<FileEntry> files) {
      this.files = List.copyOf(files);
      long bytes = 64;
      for (FileEntry f : files) {
        byPath.putIfAbsent(f.path(), f);
        byPathBytes.putIfAbsent(new Utf8(f.path()), f);
        byNormalPath.putIfAbsent(SourcePaths.normalize(f.path()), f);
        if (f.debugId() != null) {
          byDebugId.putIfAbsent(SourcePaths.normalizeDebugId(f.debugId()), f);
        }
        bytes += 280 + 5L * f.path().length() + 4L * f.firstLines().length;
      }
      heapBytes = bytes;
    }

    public List<FileEntry> files() {
      return files;
    }

    public FileEntry byPath(String path) {
      FileEntry f = byPath.get(path);
      return f != null ? f : byNormalPath.get(SourcePaths.normalize(path));
    }

    /** {@link #byPath(String)} for a path as a frame carries it (a page's Utf8 or a String). */
    public FileEntry byPath(CharSequence path) {
      if (path instanceof Utf8 u) {
        FileEntry f = byPathBytes.get(u);
        if (f != null) {
          return f;
        }
      }
      return byPath(path.toString());
    }

    public FileEntry byDebugId(String debugId) {
      return byDebugId.get(SourcePaths.normalizeDebugId(debugId));
    }

    @Override
    public long heapBytes() {
      return heapBytes;
    }
  }

  /**
   * Consecutive lines of one file, from {@code firstLine} (1-based). A frame's context is a range
   * of these lines ({@link SourceContext} views it): nothing is copied or kept per frame, and the
   * lines an event shows are read from one place, the chunk's own array.
   */
  final class Chunk implements SourcePage {
    private final int firstLine;
    private final SourceLine[] lines;
    private final long heapBytes;

    Chunk(int firstLine, SourceLine[] lines, long heapBytes) {
      this.firstLine = firstLine;
      this.lines = lines;
      this.heapBytes = heapBytes;
    }

    public int firstLine() {
      return firstLine;
    }

    /** The chunk's lines (shared: not to be changed). */
    public SourceLine[] lines() {
      return lines;
    }

    @Override
    public long heapBytes() {
      return heapBytes;
    }
  }
}
