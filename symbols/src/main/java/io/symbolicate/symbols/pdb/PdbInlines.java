package io.symbolicate.symbols.pdb;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The inlined calls of a module's procedures: {@code S_INLINESITE} and {@code S_INLINESITE2}
 * records (nested as the calls were, closed by {@code S_INLINESITE_END}), each naming its
 * inlinee by IPI index ({@code LF_FUNC_ID}, {@code LF_MFUNC_ID}), with its lines from the
 * binary annotations run from the inlinee's first line in the module's {@code
 * DEBUG_S_INLINEELINES} subsection. The annotations are evaluated as the pdb crate does (the
 * reader of symbolic and Mozilla's dump_syms): {@code ChangeCodeOffset}, {@code
 * ChangeCodeOffsetAndLineOffset} and {@code ChangeCodeLengthAndCodeOffset} emit a line at the
 * current offset from the procedure's start; a line without a length takes it from the next
 * line's offset or from {@code ChangeCodeLength}.
 */
public final class PdbInlines {
  static final int S_END = 0x0006;
  static final int S_INLINESITE = 0x114d;
  static final int S_INLINESITE_END = 0x114e;
  static final int S_INLINESITE2 = 0x115d;
  static final int DEBUG_S_INLINEELINES = 0xf6;
  static final int DEBUG_S_CROSSSCOPEIMPORTS = 0xf7;
  static final int DEBUG_S_CROSSSCOPEEXPORTS = 0xf8;

  /** Inline sites deeper than this are refused (a real one nests a few dozen at most). */
  static final int MAX_DEPTH = 256;

  /** One inlined call: its depth below the procedure (0: called by it), inlinee, lines. */
  public record Site(long procedureRva, int depth, long inlinee, List<PdbLine> lines) {
    /** The address ranges of the inlined code, {rva, size} of each line. */
    public List<long[]> ranges() {
      List<long[]> out = new ArrayList<>();
      for (PdbLine l : lines) {
        out.add(new long[] {l.rva(), l.size()});
      }
      return out;
    }
  }

  /**
   * A module's inline sites in columns, in symbol order: each site's procedure, depth, inlinee
   * and its line rows (a range of one {@link PdbLineRows}), with no object per site or row.
   */
  public static final class Sites {
    private long[] procedureRva = new long[16];
    private int[] depth = new int[16];
    private long[] inlinee = new long[16];
    private int[] rowsFrom = new int[17];
    private int count;
    private final PdbLineRows rows = new PdbLineRows();

    void add(long procedureRva, int depth, long inlinee, int rowsFrom, int rowsTo) {
      if (count == this.depth.length) {
        int c = count * 2;
        this.procedureRva = Arrays.copyOf(this.procedureRva, c);
        this.depth = Arrays.copyOf(this.depth, c);
        this.inlinee = Arrays.copyOf(this.inlinee, c);
        this.rowsFrom = Arrays.copyOf(this.rowsFrom, c + 1);
      }
      this.procedureRva[count] = procedureRva;
      this.depth[count] = depth;
      this.inlinee[count] = inlinee;
      this.rowsFrom[count] = rowsFrom;
      this.rowsFrom[count + 1] = rowsTo;
      count++;
    }

    public int count() {
      return count;
    }

    public long procedureRva(int i) {
      return procedureRva[i];
    }

    public int depth(int i) {
      return depth[i];
    }

    public long inlinee(int i) {
      return inlinee[i];
    }

    /** Site {@code i}'s rows are {@code [rowsFrom(i), rowsTo(i))} of {@link #rows()}. */
    public int rowsFrom(int i) {
      return rowsFrom[i];
    }

    public int rowsTo(int i) {
      return rowsFrom[i + 1];
    }

    public PdbLineRows rows() {
      return rows;
    }

    public void clear() {
      count = 0;
      rows.clear();
    }
  }

  private PdbInlines() {}

  /** The inline sites of a module, in symbol order (a parent before the sites it holds). */
  public static List<Site> read(PdbFile pdb, PdbModule m, ByteBuffer names) {
    return read(pdb, m, names, new Exports(pdb, names));
  }

  /**
   * The cross-module exports of a PDB's modules ({@code DEBUG_S_CROSSSCOPEEXPORTS}: a module's
   * local id to the IPI's), read once per module, for inlinees that a module imports: an id with
   * the high bit set names (bits 20..30) a module of the importing module's {@code
   * DEBUG_S_CROSSSCOPEIMPORTS} and (bits 0..19) an entry of that module's imported ids.
   */
  public static final class Exports {
    private final PdbFile pdb;
    private final ByteBuffer names;
    private final Map<String, Map<Long, Long>> byModule = new HashMap<>();
    private Map<String, PdbModule> modules;

    public Exports(PdbFile pdb, ByteBuffer names) {
      this.pdb = pdb;
      this.names = names;
    }

    /** The IPI index a module's local id stands for, or -1. */
    long global(String module, long local) {
      if (modules == null) {
        modules = new HashMap<>();
        for (PdbModule m : pdb.modules()) {
          modules.putIfAbsent(m.name().toLowerCase(java.util.Locale.ROOT), m);
        }
      }
      Map<Long, Long> exports =
          byModule.computeIfAbsent(
              module.toLowerCase(java.util.Locale.ROOT),
              k -> {
                Map<Long, Long> e = new HashMap<>();
                PdbModule m = modules.get(k);
                ByteBuffer b = m == null ? null : PdbSymbols.moduleStream(pdb, m);
                if (b != null) {
                  forSubsections(
                      b,
                      m,
                      (kind, from, to) -> {
                        if (kind == DEBUG_S_CROSSSCOPEEXPORTS) {
                          for (int at = from; at + 8 <= to; at += 8) {
                            e.put(b.getInt(at) & 0xffffffffL, b.getInt(at + 4) & 0xffffffffL);
                          }
                        }
                      });
                }
                return e;
              });
      return exports.getOrDefault(local, -1L);
    }
  }

  interface SubsectionVisitor {
    void subsection(int kind, int from, int to);
  }

  /** Visits the C13 debug subsections of a module's stream; refuses one past their end. */
  static void forSubsections(ByteBuffer b, PdbModule m, SubsectionVisitor v) {
    long start = m.symbolBytes() + m.c11Bytes();
    if (m.c13Bytes() == 0 || start > b.limit() || m.c13Bytes() > b.limit() - start) {
      return;
    }
    int to = (int) (start + m.c13Bytes());
    int at = (int) start;
    while (at + 8 <= to) {
      int kind = b.getInt(at);
      int len = b.getInt(at + 4);
      if (len < 0 || len > to - at - 8) {
        throw new PdbFormatException(
            "module " + m.name() + ": a debug subsection of " + len + " bytes runs past its end");
      }
      v.subsection(kind, at + 8, at + 8 + len);
      at = at + 8 + ((len + 3) & ~3);
    }
  }

  /** The inline sites of a module, cross-module inlinees resolved through {@code exports}. */
  public static List<Site> read(PdbFile pdb, PdbModule m, ByteBuffer names, Exports exports) {
    PdbFileNames files = new PdbFileNames();
    Sites sites = new Sites();
    read(pdb, m, PdbSymbols.moduleStream(pdb, m), names, exports, files, sites);
    List<Site> out = new ArrayList<>(sites.count());
    for (int i = 0; i < sites.count(); i++) {
      List<PdbLine> lines = new ArrayList<>();
      for (int r = sites.rowsFrom(i); r < sites.rowsTo(i); r++) {
        lines.add(sites.rows().row(r, files));
      }
      out.add(new Site(sites.procedureRva(i), sites.depth(i), sites.inlinee(i), lines));
    }
    return out;
  }

  /**
   * Adds the inline sites of a module to {@code out}, cross-module inlinees resolved through
   * {@code exports}, their files named in {@code files}; {@code b} is the module's stream (null:
   * none).
   */
  public static void read(
      PdbFile pdb,
      PdbModule m,
      ByteBuffer b,
      ByteBuffer names,
      Exports exports,
      PdbFileNames files,
      Sites out) {
    if (b == null || m.symbolBytes() < 4) {
      return;
    }
    PdbSymbols.checkSymbolBytes(m, b);
    long symEnd = m.symbolBytes();
    PdbLines.Checksums checksums = new PdbLines.Checksums();
    FirstLines firstLines = new FirstLines();
    List<String> importModules = new ArrayList<>();
    List<long[]> importIds = new ArrayList<>();
    subsections(m, b, names, files, checksums, firstLines, importModules, importIds);
    int empty = files.intern("");
    String what = "symbols of module " + m.name();
    long[] proc = {-1, 0, 0}; // rva, segment, section offset of the current procedure
    int depth = 0;
    // PdbSymbols.walk's loop, written out: a visitor per record costs a call that does not
    // inline where several visitors share the walk
    int to = (int) symEnd;
    int at = 4;
    while (at + 4 <= to) {
      int end = PdbSymbols.recordEnd(b, at, to, what);
      int kind = b.getShort(at + 2) & 0xffff;
      switch (kind) {
        case PdbSymbols.S_GPROC32,
            PdbSymbols.S_LPROC32,
            PdbSymbols.S_GPROC32_ID,
            PdbSymbols.S_LPROC32_ID,
            PdbSymbols.S_LPROC32_DPC,
            PdbSymbols.S_LPROC32_DPC_ID -> {
          if (end - at >= 39) {
            proc[1] = b.getShort(at + 36) & 0xffff;
            proc[2] = b.getInt(at + 32) & 0xffffffffL;
            proc[0] = pdb.rva((int) proc[1], proc[2]);
          }
          depth = 0;
        }
        case S_INLINESITE, S_INLINESITE2 -> {
          int annotations = at + (kind == S_INLINESITE2 ? 20 : 16);
          if (annotations > end) {
            throw new PdbFormatException(
                what + ": an inline site record of " + (end - at) + " bytes");
          }
          if (depth >= MAX_DEPTH) {
            throw new PdbFormatException(what + ": inline sites nested deeper than " + MAX_DEPTH);
          }
          long inlinee = b.getInt(at + 12) & 0xffffffffL;
          if (proc[0] >= 0) {
            int first = firstLines.find(inlinee);
            long firstFile = first < 0 ? -1 : firstLines.file[first];
            long firstLine = first < 0 ? 0 : firstLines.line[first];
            int from = out.rows.count();
            lines(
                b, annotations, end, proc, firstFile, firstLine, checksums, empty, out.rows, what);
            long global = inlinee;
            if ((inlinee & 0x80000000L) != 0) { // imported from another module
              int module = (int) ((inlinee >>> 20) & 0x7ff);
              int index = (int) (inlinee & 0xfffff);
              global =
                  module < importModules.size() && index < importIds.get(module).length
                      ? exports.global(importModules.get(module), importIds.get(module)[index])
                      : -1;
            }
            out.add(proc[0], depth, global, from, out.rows.count());
          }
          depth++;
        }
        case S_INLINESITE_END -> depth = Math.max(0, depth - 1);
        default -> {}
      }
      at = end;
    }
  }

  /**
   * Each inlinee's first line and file ({@code DEBUG_S_INLINEELINES}; the first entry of an
   * inlinee answers), by inlinee in an open-addressing table: no boxed key per site looked up.
   */
  static final class FirstLines {
    private long[] keys = new long[64];
    private boolean[] used = new boolean[64];
    private long[] file = new long[64];
    private long[] line = new long[64];
    private int count;

    /** Room for {@code n} more entries (a count the subsection's bytes hold) without rehashing. */
    void expect(int n) {
      long need = 2L * (count + n);
      if (need > keys.length) {
        rehash((int) Math.min(1 << 30, Long.highestOneBit(need - 1) << 1));
      }
    }

    private int slot(long key) {
      int mask = keys.length - 1;
      int h = Long.hashCode(key * 0x9e3779b97f4a7c15L) & mask;
      while (used[h] && keys[h] != key) {
        h = (h + 1) & mask;
      }
      return h;
    }

    /** The slot of {@code inlinee}, or -1. */
    int find(long inlinee) {
      int h = slot(inlinee);
      return used[h] ? h : -1;
    }

    void putIfAbsent(long inlinee, long file, long line) {
      int h = slot(inlinee);
      if (used[h]) {
        return;
      }
      used[h] = true;
      keys[h] = inlinee;
      this.file[h] = file;
      this.line[h] = line;
      if (++count * 2 > keys.length) {
        rehash(keys.length * 2);
      }
    }

    private void rehash(int capacity) {
      long[] k = keys;
      boolean[] u = used;
      long[] f = this.file;
      long[] l = this.line;
      keys = new long[capacity];
      used = new boolean[capacity];
      this.file = new long[capacity];
      this.line = new long[capacity];
      for (int i = 0; i < k.length; i++) {
        if (u[i]) {
          int s = slot(k[i]);
          used[s] = true;
          keys[s] = k[i];
          this.file[s] = f[i];
          this.line[s] = l[i];
        }
      }
    }
  }

  /** The module's file checksums, inlinee lines and cross-module imports subsections. */
  private static void subsections(
      PdbModule m,
      ByteBuffer b,
      ByteBuffer names,
      PdbFileNames files,
      PdbLines.Checksums checksums,
      FirstLines firstLines,
      List<String> importModules,
      List<long[]> importIds) {
    forSubsections(
        b,
        m,
        (kind, body, end) -> {
          if (kind == PdbLines.DEBUG_S_FILECHKSMS) {
            checksums.read(b, body, end, names, files);
          } else if (kind == DEBUG_S_INLINEELINES && end - body >= 4) {
            boolean extra = b.getInt(body) == 1;
            int e = body + 4;
            firstLines.expect((end - e) / 12); // entries of 12 bytes at least
            while (e + 12 <= end) {
              long inlinee = b.getInt(e) & 0xffffffffL;
              long file = b.getInt(e + 4) & 0xffffffffL;
              long line = b.getInt(e + 8) & 0xffffffffL;
              e += 12;
              if (extra) {
                if (e + 4 > end) {
                  break;
                }
                long count = b.getInt(e) & 0xffffffffL;
                if (count > (end - e - 4) / 4) {
                  throw new PdbFormatException(
                      "module " + m.name() + ": an inlinee line claims " + count + " extra files");
                }
                e += 4 + 4 * (int) count;
              }
              firstLines.putIfAbsent(inlinee, file, line);
            }
          } else if (kind == DEBUG_S_CROSSSCOPEIMPORTS) {
            int e = body;
            while (e + 8 <= end) {
              long nameOffset = b.getInt(e) & 0xffffffffL;
              long count = b.getInt(e + 4) & 0xffffffffL;
              if (count > (end - e - 8) / 4) {
                throw new PdbFormatException(
                    "module " + m.name() + ": a cross-module import claims " + count + " ids");
              }
              long[] ids = new long[(int) count];
              for (int i = 0; i < ids.length; i++) {
                ids[i] = b.getInt(e + 8 + 4 * i) & 0xffffffffL;
              }
              importModules.add(
                  nameOffset < names.limit()
                      ? PdbFile.cString(names, (int) nameOffset, names.limit())
                      : "");
              importIds.add(ids);
              e += 8 + 4 * ids.length;
            }
          }
        });
  }

  /**
   * Runs the binary annotations in {@code [from, to)}: adds the inline site's lines to {@code
   * rows} (starting at the inlinee's first line in {@code firstFile}, -1: none).
   */
  static void lines(
      ByteBuffer b,
      int from,
      int to,
      long[] proc,
      long firstFile,
      long firstLine,
      PdbLines.Checksums checksums,
      int empty,
      PdbLineRows rows,
      String what) {
    int first = rows.count(); // rows hold {section offset, length or -1, line, file} until the end
    long offset = proc[2];
    long base = 0;
    long codeLength = -1;
    long line = firstLine;
    long file = firstFile;
    int fileIndex = checksums.file(file, empty);
    int[] pos = {from};
    while (pos[0] < to) {
      long op = uncompress(b, pos, to, what);
      if (op == 0) {
        break; // end of the annotations (padding)
      }
      boolean emits = false;
      switch ((int) op) {
        case 1 -> offset = uncompress(b, pos, to, what);
        case 2 -> base = uncompress(b, pos, to, what);
        case 3 -> {
          offset += uncompress(b, pos, to, what);
          emits = true;
        }
        case 4 -> {
          long length = uncompress(b, pos, to, what);
          int last = rows.count() - 1;
          if (last >= first && rows.length(last) < 0) {
            rows.setLength(last, length);
          }
          offset += length;
        }
        case 5 -> {
          file = uncompress(b, pos, to, what);
          fileIndex = checksums.file(file, empty);
        }
        case 6 -> line += signed(uncompress(b, pos, to, what));
        case 7, 8, 9, 10, 13 -> uncompress(b, pos, to, what); // line end, kind, columns
        case 11 -> {
          long v = uncompress(b, pos, to, what);
          offset += v & 0xf;
          line += signed(v >>> 4);
          emits = true;
        }
        case 12 -> {
          codeLength = uncompress(b, pos, to, what);
          offset += uncompress(b, pos, to, what);
          emits = true;
        }
        default ->
            throw new PdbFormatException(what + ": binary annotation opcode " + op + " is unknown");
      }
      if (emits) {
        long at = offset + base;
        int last = rows.count() - 1;
        if (last >= first && rows.length(last) < 0) {
          rows.setLength(last, Math.max(0, at - rows.rva(last)));
        }
        rows.add(at, codeLength, (int) line, fileIndex);
        codeLength = -1;
      }
    }
    for (int r = first; r < rows.count(); r++) {
      rows.setRva(r, rows.rva(r) - proc[2] + proc[0]);
      rows.setLength(r, Math.max(0, rows.length(r)));
    }
  }

  /** {@code CVUncompressData}: 1, 2 or 4 bytes by the top bits of the first. */
  static long uncompress(ByteBuffer b, int[] pos, int to, String what) {
    int p = pos[0];
    if (p >= to) {
      throw new PdbFormatException(what + ": a binary annotation is cut at the end of its record");
    }
    int b1 = b.get(p) & 0xff;
    if ((b1 & 0x80) == 0) {
      pos[0] = p + 1;
      return b1;
    }
    if ((b1 & 0xc0) == 0x80) {
      if (p + 2 > to) {
        throw new PdbFormatException(
            what + ": a binary annotation is cut at the end of its record");
      }
      pos[0] = p + 2;
      return ((b1 & 0x3fL) << 8) | (b.get(p + 1) & 0xff);
    }
    if ((b1 & 0xe0) == 0xc0) {
      if (p + 4 > to) {
        throw new PdbFormatException(
            what + ": a binary annotation is cut at the end of its record");
      }
      pos[0] = p + 4;
      return ((b1 & 0x1fL) << 24)
          | ((b.get(p + 1) & 0xffL) << 16)
          | ((b.get(p + 2) & 0xffL) << 8)
          | (b.get(p + 3) & 0xff);
    }
    throw new PdbFormatException(
        what + ": a binary annotation starts with byte 0x" + Integer.toHexString(b1));
  }

  /** {@code DecodeSignedInt32}: the low bit is the sign. */
  static long signed(long v) {
    return (v & 1) != 0 ? -(v >>> 1) : v >>> 1;
  }
}
