package io.symbolicate.symbols.pdb;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * CodeView symbol records: the publics of the symbol record stream ({@code S_PUB32}) and the
 * procedures of a module's symbol stream ({@code S_GPROC32}, {@code S_LPROC32} and their {@code
 * _ID} and DPC forms). A record whose length is 0 or runs past its stream is refused.
 */
public final class PdbSymbols {
  static final int S_PUB32 = 0x110e;
  static final int S_LPROC32 = 0x110f;
  static final int S_GPROC32 = 0x1110;
  static final int S_LPROC32_ID = 0x1146;
  static final int S_GPROC32_ID = 0x1147;
  static final int S_LPROC32_DPC = 0x1155;
  static final int S_LPROC32_DPC_ID = 0x1156;

  /** {@code CVPSF_CODE}, {@code CVPSF_FUNCTION} of {@code S_PUB32}'s flags. */
  static final int PUBLIC_CODE = 1;

  static final int PUBLIC_FUNCTION = 2;

  private PdbSymbols() {}

  /** The {@code S_PUB32} records of the symbol record stream, in stream order. */
  public static List<PdbPublic> publics(PdbFile pdb) {
    int s = pdb.symbolRecordStream();
    List<PdbPublic> out = new ArrayList<>();
    if (s < 0) {
      return out;
    }
    ByteBuffer b = pdb.msf().stream(s, "symbol record stream");
    walk(
        b,
        0,
        b.limit(),
        "symbol record stream",
        (kind, at, end) -> {
          if (kind == S_PUB32 && end - at >= 14) {
            int flags = b.getInt(at + 4);
            long offset = b.getInt(at + 8) & 0xffffffffL;
            int segment = b.getShort(at + 12) & 0xffff;
            long rva = pdb.rva(segment, offset);
            if (rva >= 0) {
              out.add(
                  new PdbPublic(
                      PdbFile.cString(b, at + 14, end),
                      rva,
                      (flags & PUBLIC_CODE) != 0,
                      (flags & PUBLIC_FUNCTION) != 0));
            }
          }
        });
    return out;
  }

  /** The module's symbol stream, or null when it has none. */
  public static ByteBuffer moduleStream(PdbFile pdb, PdbModule m) {
    if (m.stream() < 0 || !pdb.msf().hasStream(m.stream())) {
      return null;
    }
    return pdb.msf().stream(m.stream(), "symbols of module " + m.name());
  }

  /** The procedures of one module. */
  public static List<PdbProcedure> procedures(PdbFile pdb, PdbModule m) {
    List<PdbProcedure> out = new ArrayList<>();
    ByteBuffer b = moduleStream(pdb, m);
    if (b == null) {
      return out;
    }
    procedures(pdb, m, b, out);
    return out;
  }

  /** The procedures of one module from its stream {@code b} (null: none), read once by the caller. */
  public static List<PdbProcedure> procedures(PdbFile pdb, PdbModule m, ByteBuffer b) {
    List<PdbProcedure> out = new ArrayList<>();
    if (b != null) {
      procedures(pdb, m, b, out);
    }
    return out;
  }

  /** Refuses a module whose symbol bytes claim more than its stream holds. */
  static void checkSymbolBytes(PdbModule m, ByteBuffer b) {
    if (m.symbolBytes() > b.limit()) {
      throw new PdbFormatException(
          "module "
              + m.name()
              + " claims "
              + m.symbolBytes()
              + " bytes of symbols, its stream has "
              + b.limit());
    }
  }

  static void procedures(PdbFile pdb, PdbModule m, ByteBuffer b, List<PdbProcedure> out) {
    long symEnd = m.symbolBytes();
    if (symEnd < 4) {
      return;
    }
    checkSymbolBytes(m, b);
    walk(
        b,
        4,
        (int) symEnd,
        "symbols of module " + m.name(),
        (kind, at, end) -> {
          switch (kind) {
            case S_GPROC32,
                S_LPROC32,
                S_GPROC32_ID,
                S_LPROC32_ID,
                S_LPROC32_DPC,
                S_LPROC32_DPC_ID -> {
              if (end - at < 39) {
                throw new PdbFormatException(
                    "a procedure record of " + (end - at) + " bytes in module " + m.name());
              }
              long size = b.getInt(at + 16) & 0xffffffffL;
              long type = b.getInt(at + 28) & 0xffffffffL;
              long offset = b.getInt(at + 32) & 0xffffffffL;
              int segment = b.getShort(at + 36) & 0xffff;
              long rva = pdb.rva(segment, offset);
              boolean global = kind == S_GPROC32 || kind == S_GPROC32_ID;
              // _ID forms carry an IPI function id, not a TPI type
              boolean id = kind == S_GPROC32_ID || kind == S_LPROC32_ID || kind == S_LPROC32_DPC_ID;
              if (rva >= 0) {
                out.add(
                    new PdbProcedure(
                        PdbFile.cString(b, at + 39, end), rva, size, type, id, global));
              }
            }
            default -> {}
          }
        });
  }

  interface RecordVisitor {
    /** A record of {@code kind} at {@code [at, end)} (its length and kind fields included). */
    void record(int kind, int at, int end);
  }

  /** Walks the records in {@code [from, to)}; refuses a length of 0 or one past {@code to}. */
  static void walk(ByteBuffer b, int from, int to, String what, RecordVisitor v) {
    int at = from;
    while (at + 4 <= to) {
      int end = recordEnd(b, at, to, what);
      v.record(b.getShort(at + 2) & 0xffff, at, end);
      at = end;
    }
  }

  /**
   * The end of the record at {@code at} (its length field included); refuses a length of 0 or
   * one that runs past {@code to}.
   */
  static int recordEnd(ByteBuffer b, int at, int to, String what) {
    int len = b.getShort(at) & 0xffff;
    if (len < 2) {
      throw new PdbFormatException(what + ": a symbol record of length " + len + " at " + at);
    }
    int end = at + 2 + len;
    if (end > to) {
      throw new PdbFormatException(
          what
              + ": the symbol record at "
              + at
              + " of "
              + len
              + " bytes runs past the end ("
              + to
              + ")");
    }
    return end;
  }
}
