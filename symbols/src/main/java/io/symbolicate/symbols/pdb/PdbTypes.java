package io.symbolicate.symbols.pdb;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A type stream: the TPI (stream 2, types) or the IPI (stream 4, ids such as {@code LF_FUNC_ID}).
 * Records are found by walking the stream, so the index table grows with the records that exist,
 * never with the count the header claims. Names are resolved for what inlinee names need: {@code
 * LF_FUNC_ID} (scope {@code ::} name), {@code LF_MFUNC_ID} (class {@code ::} name), {@code
 * LF_STRING_ID}, and the TPI's classes, structures, unions and enums, following {@code
 * LF_MODIFIER} and {@code LF_POINTER}; a chain that comes back to a type it passed is refused.
 */
public final class PdbTypes {
  static final int STREAM_TPI = 2;
  static final int STREAM_IPI = 4;

  static final int LF_MODIFIER = 0x1001;
  static final int LF_POINTER = 0x1002;
  static final int LF_CLASS = 0x1504;
  static final int LF_STRUCTURE = 0x1505;
  static final int LF_UNION = 0x1506;
  static final int LF_ENUM = 0x1507;
  static final int LF_INTERFACE = 0x1519;
  static final int LF_FUNC_ID = 0x1601;
  static final int LF_MFUNC_ID = 0x1602;
  static final int LF_STRING_ID = 0x1605;

  /** How many links a name may follow (modifiers, pointers, scopes) before it is refused. */
  static final int MAX_DEPTH = 64;

  private static final PdbTypes EMPTY = new PdbTypes(ByteBuffer.allocate(0), 0x1000, new int[0], 0);

  private final ByteBuffer data;
  private final int first;
  private final int[] offsets;
  private final int count;
  private PdbTypes tpi; // the TPI, for the IPI's LF_MFUNC_ID parents

  private PdbTypes(ByteBuffer data, int first, int[] offsets, int count) {
    this.data = data;
    this.first = first;
    this.offsets = offsets;
    this.count = count;
  }

  /** The TPI stream's types (empty without one). */
  public static PdbTypes tpi(PdbFile pdb) {
    return read(pdb, STREAM_TPI, "TPI stream");
  }

  /** The IPI stream's ids, with the TPI for the classes of member functions. */
  public static PdbTypes ipi(PdbFile pdb) {
    PdbTypes ids = read(pdb, STREAM_IPI, "IPI stream");
    ids.tpi = tpi(pdb);
    return ids;
  }

  static PdbTypes read(PdbFile pdb, int stream, String what) {
    MsfFile msf = pdb.msf();
    if (!msf.hasStream(stream) || msf.streamSize(stream) < 56) {
      return EMPTY.copy();
    }
    ByteBuffer b = msf.stream(stream, what);
    long headerSize = b.getInt(4) & 0xffffffffL;
    long firstIndex = b.getInt(8) & 0xffffffffL;
    long recordBytes = b.getInt(16) & 0xffffffffL;
    if (headerSize < 56 || headerSize > b.limit() || recordBytes > b.limit() - headerSize) {
      throw new PdbFormatException(
          what
              + ": a header of "
              + headerSize
              + " bytes and "
              + recordBytes
              + " bytes of records, more than the stream's "
              + b.limit());
    }
    if (firstIndex < 0x1000 || firstIndex > 0xffffff) {
      throw new PdbFormatException(what + ": first type index " + firstIndex);
    }
    ByteBuffer records = b.slice((int) headerSize, (int) recordBytes).order(b.order());
    int[] offsets = new int[16];
    int n = 0;
    int at = 0;
    while (at + 4 <= records.limit()) {
      int len = records.getShort(at) & 0xffff;
      if (len < 2 || at + 2 + len > records.limit()) {
        throw new PdbFormatException(
            what + ": the type record at " + at + " of " + len + " bytes runs past the end");
      }
      if (n == offsets.length) {
        offsets = Arrays.copyOf(offsets, n * 2);
      }
      offsets[n++] = at;
      at += 2 + len;
    }
    return new PdbTypes(records, (int) firstIndex, offsets, n);
  }

  private PdbTypes copy() {
    return new PdbTypes(data, first, offsets, count);
  }

  /** How many records the stream holds. */
  public int size() {
    return count;
  }

  /** The record kind of {@code index}, or -1 when no record has that index. */
  public int kind(long index) {
    int at = offset(index);
    return at < 0 ? -1 : data.getShort(at + 2) & 0xffff;
  }

  /** The index of the first record. */
  int first() {
    return first;
  }

  /** The TPI of an IPI (null for a TPI). */
  PdbTypes tpi() {
    return tpi;
  }

  /** The record's offset in {@link #bytes()}, or -1 when no record has that index. */
  int at(long index) {
    return offset(index);
  }

  ByteBuffer bytes() {
    return data;
  }

  /** The offset after the record at {@code at}. */
  int endOf(int at) {
    return end(at);
  }

  private int offset(long index) {
    long i = index - first;
    return i < 0 || i >= count ? -1 : offsets[(int) i];
  }

  private int end(int at) {
    return at + 2 + (data.getShort(at) & 0xffff);
  }

  /**
   * The qualified name of an id or type record ({@code ns::Class::function} for an {@code
   * LF_FUNC_ID} or {@code LF_MFUNC_ID}), or null when the index names no record with a name.
   */
  public String name(long index) {
    return name(index, 0, index);
  }

  private String name(long index, int depth, long start) {
    if (depth > 0 && index == start) {
      throw new PdbFormatException(
          "type index 0x" + Long.toHexString(start) + " refers back to itself");
    }
    if (depth > MAX_DEPTH) {
      throw new PdbFormatException(
          "type index 0x" + Long.toHexString(start) + ": a chain of more than " + MAX_DEPTH);
    }
    int at = offset(index);
    if (at < 0) {
      return null;
    }
    int end = end(at);
    int kind = data.getShort(at + 2) & 0xffff;
    switch (kind) {
      case LF_FUNC_ID -> {
        need(at, end, 12, index);
        long scope = data.getInt(at + 4) & 0xffffffffL;
        String name = PdbFile.cString(data, at + 12, end);
        String s = scope == 0 ? null : name(scope, depth + 1, start);
        return s == null || s.isEmpty() ? name : s + "::" + name;
      }
      case LF_MFUNC_ID -> {
        need(at, end, 12, index);
        long parent = data.getInt(at + 4) & 0xffffffffL;
        String name = PdbFile.cString(data, at + 12, end);
        String s = tpi == null ? null : tpi.name(parent, 0, parent);
        return s == null || s.isEmpty() ? name : s + "::" + name;
      }
      case LF_STRING_ID -> {
        need(at, end, 8, index);
        String s = PdbFile.cString(data, at + 8, end);
        // a scope ?A0x<hex> is an anonymous namespace, as symbolic (and undname) print it
        return s.matches("\\?A0x[0-9a-fA-F]{1,8}") ? "`anonymous namespace'" : s;
      }
      case LF_MODIFIER -> {
        need(at, end, 10, index);
        long type = data.getInt(at + 4) & 0xffffffffL;
        int mods = data.getShort(at + 8) & 0xffff;
        String t = name(type, depth + 1, start);
        return t == null ? null : ((mods & 1) != 0 ? t + " const" : t);
      }
      case LF_POINTER -> {
        need(at, end, 12, index);
        String t = name(data.getInt(at + 4) & 0xffffffffL, depth + 1, start);
        return t == null ? null : t + "*";
      }
      case LF_CLASS, LF_STRUCTURE, LF_INTERFACE -> {
        need(at, end, 20, index);
        return PdbFile.cString(data, skipNumeric(at + 20, end, index), end);
      }
      case LF_UNION -> {
        need(at, end, 12, index);
        return PdbFile.cString(data, skipNumeric(at + 12, end, index), end);
      }
      case LF_ENUM -> {
        need(at, end, 16, index);
        return PdbFile.cString(data, at + 16, end);
      }
      default -> {
        return null;
      }
    }
  }

  static void need(int at, int end, int bytes, long index) {
    if (end - at < bytes) {
      throw new PdbFormatException(
          "type record 0x" + Long.toHexString(index) + " of " + (end - at) + " bytes is cut");
    }
  }

  /** The value of a numeric leaf (0 for a kind without an integer value). */
  long numeric(int at, int end, long index) {
    need(at, end, 2, index);
    int leaf = data.getShort(at) & 0xffff;
    if (leaf < 0x8000) {
      return leaf;
    }
    int size = skipNumeric(at, end, index) - at - 2;
    return switch (leaf) {
      case 0x8000 -> size < 1 ? 0 : data.get(at + 2);
      case 0x8001 -> size < 2 ? 0 : data.getShort(at + 2);
      case 0x8002 -> size < 2 ? 0 : data.getShort(at + 2) & 0xffff;
      case 0x8003 -> size < 4 ? 0 : data.getInt(at + 2);
      case 0x8004 -> size < 4 ? 0 : data.getInt(at + 2) & 0xffffffffL;
      case 0x8009, 0x800a -> size < 8 ? 0 : data.getLong(at + 2);
      default -> 0;
    };
  }

  /** The offset after a numeric leaf (a value below 0x8000 in place, else a kind and a value). */
  int skipNumeric(int at, int end, long index) {
    need(at, end, 2, index);
    int leaf = data.getShort(at) & 0xffff;
    int size =
        switch (leaf) {
          case 0x8000 -> 1;
          case 0x8001, 0x8002 -> 2;
          case 0x8003, 0x8004, 0x8005 -> 4;
          case 0x8009, 0x800a -> 8;
          default -> 0;
        };
    return Math.min(at + 2 + (leaf < 0x8000 ? 0 : size), end);
  }
}
