package io.symbolicate.symbols.dotnet;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Every sequence point of a Portable PDB, sorted by (method row, IL offset): what symbolic-ppdb's
 * PortablePdbCache holds, and the lookup it answers. A lookup takes the point at the IL offset or
 * the last one before it in the same method; a hidden point answers line 0; a method without
 * points (or an offset before its first) answers nothing. Two points at one offset: the later in
 * the blob wins, as in symbolic's map.
 */
public final class PpdbLineTable {
  private final List<Document> documents;
  private final long[] keys;
  private final int[] lines;
  private final int[] columns;
  private final int[] docs;
  // where each method's points begin in keys (methods + 2 entries): a lookup searches only its
  // method's few points
  private final int[] methodStart;

  private PpdbLineTable(
      List<Document> documents, long[] keys, int[] lines, int[] columns, int[] docs, int methods) {
    this.documents = documents;
    this.keys = keys;
    this.lines = lines;
    this.columns = columns;
    this.docs = docs;
    this.methodStart = new int[methods + 2];
    int at = 0;
    for (int m = 0; m <= methods + 1; m++) {
      while (at < keys.length && (keys[at] >>> 32) < m) {
        at++;
      }
      methodStart[m] = at;
    }
  }

  /** Decodes every method's points; any invalid point or document refuses the PDB (as symbolic). */
  public static PpdbLineTable build(PortablePdb pdb) {
    List<Document> documents = pdb.documents();
    int methods = pdb.methodCount();
    long budget = pdb.maxSequencePoints();
    int n = 0;
    long[] keys = new long[64];
    int[] lines = new int[64];
    int[] columns = new int[64];
    int[] docs = new int[64];
    for (int m = 1; m <= methods; m++) {
      for (SequencePoint p : pdb.sequencePoints(m)) {
        if (p.document() < 1 || p.document() > documents.size()) {
          throw new PortablePdbException(
              "method " + m + " names document " + p.document() + " of " + documents.size());
        }
        if (n >= budget) {
          throw new PortablePdbException(
              "more than " + budget + " sequence points: methods share blobs beyond any build's");
        }
        if (n == keys.length) {
          int grown = n * 2;
          keys = Arrays.copyOf(keys, grown);
          lines = Arrays.copyOf(lines, grown);
          columns = Arrays.copyOf(columns, grown);
          docs = Arrays.copyOf(docs, grown);
        }
        keys[n] = key(m, p.ilOffset());
        lines[n] = p.isHidden() ? 0 : p.startLine();
        columns[n] = p.isHidden() ? 0 : p.startColumn();
        docs[n] = p.document();
        n++;
      }
    }
    boolean increasing = true;
    for (int i = 1; i < n && increasing; i++) {
      increasing = keys[i - 1] < keys[i];
    }
    if (increasing) {
      // methods in row order, offsets rising in each blob: the usual case needs no sort
      return new PpdbLineTable(
          documents,
          Arrays.copyOf(keys, n),
          Arrays.copyOf(lines, n),
          Arrays.copyOf(columns, n),
          Arrays.copyOf(docs, n),
          methods);
    }
    // sort by key keeping blob order among equal keys, then keep the last of each key
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    long[] k0 = keys;
    Arrays.sort(order, (a, b) -> Long.compare(k0[a], k0[b]));
    int u = 0;
    long[] k = new long[n];
    int[] l = new int[n];
    int[] c = new int[n];
    int[] d = new int[n];
    for (int i = 0; i < n; i++) {
      int at = order[i];
      if (u > 0 && k[u - 1] == keys[at]) {
        u--;
      }
      k[u] = keys[at];
      l[u] = lines[at];
      c[u] = columns[at];
      d[u] = docs[at];
      u++;
    }
    return new PpdbLineTable(
        documents,
        Arrays.copyOf(k, u),
        Arrays.copyOf(l, u),
        Arrays.copyOf(c, u),
        Arrays.copyOf(d, u),
        methods);
  }

  private static long key(int method, int ilOffset) {
    return ((long) method << 32) | (ilOffset & 0xffffffffL);
  }

  long[] keys() {
    return keys;
  }

  int line(int i) {
    return lines[i];
  }

  int column(int i) {
    return columns[i];
  }

  Document document(int i) {
    return documents.get(docs[i] - 1);
  }

  /** How many (method, IL offset) ranges the table holds. */
  public int size() {
    return keys.length;
  }

  /** The line of {@code method} (1-based MethodDef row) at {@code ilOffset}, if known. */
  public Optional<LineInfo> lookup(int method, long ilOffset) {
    if (method < 1 || ilOffset < 0 || ilOffset > 0xffffffffL) {
      return Optional.empty();
    }
    if (method >= methodStart.length - 1) {
      return Optional.empty();
    }
    int i =
        floor(methodStart[method], methodStart[method + 1] - 1, ((long) method << 32) | ilOffset);
    if (i < 0) {
      return Optional.empty();
    }
    Document doc = documents.get(docs[i] - 1);
    return Optional.of(new LineInfo(doc, lines[i], columns[i]));
  }

  /** The last index in [lo, hi] whose key is at most {@code want}; -1 when there is none. */
  private int floor(int lo, int hi, long want) {
    if (hi < lo || keys[lo] > want) {
      return -1;
    }
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (keys[mid] <= want) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** A lookup's answer: the document, the start line (0 for hidden IL) and start column. */
  public record LineInfo(Document document, int line, int column) {}
}
