package io.symbolicate.symbols.sources;

import io.symbolicate.symbols.table.HeapSized;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    private final Map<String, FileEntry> byNormalPath = new HashMap<>();
    private final Map<String, FileEntry> byDebugId = new HashMap<>();
    private final long heapBytes;

    Directory(List<FileEntry> files) {
      this.files = List.copyOf(files);
      long bytes = 64;
      for (FileEntry f : files) {
        byPath.putIfAbsent(f.path(), f);
        byNormalPath.putIfAbsent(SourcePaths.normalize(f.path()), f);
        if (f.debugId() != null) {
          byDebugId.putIfAbsent(SourcePaths.normalizeDebugId(f.debugId()), f);
        }
        bytes += 200 + 4L * f.path().length() + 4L * f.firstLines().length;
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

    public FileEntry byDebugId(String debugId) {
      return byDebugId.get(SourcePaths.normalizeDebugId(debugId));
    }

    @Override
    public long heapBytes() {
      return heapBytes;
    }
  }

  /**
   * Consecutive lines of one file, from {@code firstLine} (1-based), with the contexts asked of
   * it kept (a warm frame's context is then one array read: no lists made per frame). Shared by
   * threads: a memo entry is an immutable value, written whole or not at all.
   */
  final class Chunk implements SourcePage {
    private final int firstLine;
    private final String[] lines;
    private final long heapBytes;
    private volatile SourceContext[] memo;
    private volatile int memoLines = -1;

    Chunk(int firstLine, String[] lines, long heapBytes) {
      this.firstLine = firstLine;
      this.lines = lines;
      this.heapBytes = heapBytes;
    }

    public int firstLine() {
      return firstLine;
    }

    public String[] lines() {
      return lines;
    }

    /** The memoised context of {@code line} with {@code n} lines around it, or null. */
    SourceContext memo(int line, int n) {
      SourceContext[] m = memo;
      return m != null && memoLines == n ? m[line - firstLine] : null;
    }

    void remember(int line, int n, SourceContext c) {
      SourceContext[] m = memo;
      if (m == null || memoLines != n) {
        m = new SourceContext[lines.length];
        memo = m;
        memoLines = n;
      }
      m[line - firstLine] = c;
    }

    @Override
    public long heapBytes() {
      // the memo's contexts share the chunk's strings: their lists only
      return heapBytes + 100L * lines.length;
    }
  }
}
