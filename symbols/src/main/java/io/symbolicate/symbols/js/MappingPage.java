package io.symbolicate.symbols.js;

/**
 * A run of segments sorted by generated position, decoded into flat arrays for binary search.
 * Sources and names are page-local dictionaries, so a lookup needs nothing but this page.
 */
public final class MappingPage implements JsPage {
  static final byte TAG = 'M';

  final long[] keys;
  final int[] source;
  final int[] origLine;
  final int[] origCol;
  final int[] name;
  final String[] sourceUrls;
  final int[] sourceIndex;
  final boolean[] sourceIgnored;
  final String[] names;
  /** First key of the following mapping page, or -1 (for LEAST_UPPER_BOUND across pages). */
  final long nextFirstKey;

  private MappingPage(long[] keys, int[] source, int[] origLine, int[] origCol, int[] name,
      String[] sourceUrls, int[] sourceIndex, boolean[] sourceIgnored, String[] names,
      long nextFirstKey) {
    this.keys = keys;
    this.source = source;
    this.origLine = origLine;
    this.origCol = origCol;
    this.name = name;
    this.sourceUrls = sourceUrls;
    this.sourceIndex = sourceIndex;
    this.sourceIgnored = sourceIgnored;
    this.names = names;
    this.nextFirstKey = nextFirstKey;
  }

  public int size() {
    return keys.length;
  }

  /** Index of the last segment with key {@code <= key} (the last of equal keys), or -1. */
  int floorIndex(long key) {
    long[] k = keys;
    int lo = 0;
    int hi = k.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (k[mid] <= key) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return hi;
  }

  /**
   * Encodes segments [from, to) of {@code m}; {@code globalSource} maps the map's source indices
   * to deduplicated table indices.
   */
  static byte[] encode(Mappings m, int from, int to, int[] globalSource, String[] globalUrls,
      java.util.BitSet ignored, java.util.List<String> mapNames, long nextFirstKey) {
    java.util.HashMap<Integer, Integer> localSrc = new java.util.HashMap<>();
    java.util.ArrayList<Integer> srcOrder = new java.util.ArrayList<>();
    java.util.HashMap<String, Integer> localName = new java.util.HashMap<>();
    java.util.ArrayList<String> nameOrder = new java.util.ArrayList<>();
    for (int i = from; i < to; i++) {
      int s = m.source[i];
      if (s >= 0 && localSrc.putIfAbsent(globalSource[s], srcOrder.size()) == null) {
        srcOrder.add(globalSource[s]);
      }
      int n = m.name[i];
      if (n >= 0 && localName.putIfAbsent(mapNames.get(n), nameOrder.size()) == null) {
        nameOrder.add(mapNames.get(n));
      }
    }
    ByteSink out = new ByteSink((to - from) * 6 + 64);
    out.write(TAG);
    out.writeVar(to - from);
    out.writeLong(nextFirstKey);
    out.writeVar(srcOrder.size());
    for (int g : srcOrder) {
      out.writeVar(g);
      out.write(ignored.get(g) ? 1 : 0);
      out.writeString(globalUrls[g]);
    }
    out.writeVar(nameOrder.size());
    for (String n : nameOrder) {
      out.writeString(n);
    }
    int line = 0;
    int col = 0;
    int ol = 0;
    int oc = 0;
    for (int i = from; i < to; i++) {
      int gl = m.genLine[i];
      out.writeVar(gl - line);
      out.writeVar(gl != line || i == from ? m.genCol[i] : m.genCol[i] - col);
      line = gl;
      col = m.genCol[i];
      int s = m.source[i];
      if (s < 0) {
        out.writeVar(0);
        continue;
      }
      out.writeVar(localSrc.get(globalSource[s]) + 1L);
      out.writeZigZag((long) m.origLine[i] - ol);
      out.writeZigZag((long) m.origCol[i] - oc);
      ol = m.origLine[i];
      oc = m.origCol[i];
      int n = m.name[i];
      out.writeVar(n < 0 ? 0 : localName.get(mapNames.get(n)) + 1L);
    }
    return out.toByteArray();
  }

  static MappingPage decode(byte[] bytes) {
    ByteSource in = new ByteSource(bytes);
    in.read();
    int count = in.readVarInt();
    long next = in.readLong();
    int ns = in.readVarInt();
    String[] urls = new String[ns];
    int[] idx = new int[ns];
    boolean[] ign = new boolean[ns];
    for (int i = 0; i < ns; i++) {
      idx[i] = in.readVarInt();
      ign[i] = in.read() != 0;
      urls[i] = in.readString();
    }
    int nn = in.readVarInt();
    String[] names = new String[nn];
    for (int i = 0; i < nn; i++) {
      names[i] = in.readString();
    }
    long[] keys = new long[count];
    int[] src = new int[count];
    int[] oLine = new int[count];
    int[] oCol = new int[count];
    int[] name = new int[count];
    int line = 0;
    int col = 0;
    int ol = 0;
    int oc = 0;
    for (int i = 0; i < count; i++) {
      int dl = in.readVarInt();
      int c = in.readVarInt();
      col = dl != 0 || i == 0 ? c : col + c;
      line += dl;
      keys[i] = JsTable.positionKey(line, col);
      int s = in.readVarInt() - 1;
      src[i] = s;
      if (s < 0) {
        oLine[i] = -1;
        oCol[i] = -1;
        name[i] = -1;
        continue;
      }
      if (s >= ns) {
        throw new IllegalArgumentException("corrupt js mapping page: source index out of range");
      }
      ol += (int) in.readZigZag();
      oc += (int) in.readZigZag();
      oLine[i] = ol;
      oCol[i] = oc;
      int n = in.readVarInt() - 1;
      if (n >= nn) {
        throw new IllegalArgumentException("corrupt js mapping page: name index out of range");
      }
      name[i] = n;
    }
    return new MappingPage(keys, src, oLine, oCol, name, urls, idx, ign, names, next);
  }
}
