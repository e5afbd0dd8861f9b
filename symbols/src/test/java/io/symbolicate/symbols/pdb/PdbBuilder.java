package io.symbolicate.symbols.pdb;

import io.symbolicate.symbols.pdb.MsfBuilder.Bytes;
import java.util.function.Consumer;

/**
 * A small PDB 7.0 for tests: an info stream (GUID, age, {@code /names}), an empty TPI, an IPI
 * with the records a test gives, a DBI with one module and a section headers stream ({@code
 * .text} at RVA 0x1000), the module's symbols (one {@code S_GPROC32} {@code main}, 0x20 bytes at
 * 0x1010) and C13 lines (two rows in {@code a.c}), and the publics ({@code _main}). Fields are
 * open so a hostile test can change one part.
 */
final class PdbBuilder {
  static final int STREAM_TPI = 2;
  static final int STREAM_DBI = 3;
  static final int STREAM_IPI = 4;
  static final int STREAM_SYMBOLS = 5;
  static final int STREAM_SECTIONS = 6;
  static final int STREAM_MODULE = 7;
  static final int STREAM_NAMES = 8;

  int blockSize = 512;
  byte[] guid = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  int age = 2;
  int machine = 0x14c;
  byte[] moduleSymbols = moduleSymbols();
  byte[] c13 = c13Lines();
  Long symbolBytesClaim; // the module's claimed symbol bytes, when not their real size
  byte[] ipiRecords = new byte[0];
  byte[] tpiRecords = new byte[0];
  byte[] publics = publics();
  int contributionBytesClaim; // the DBI's section contribution substream size
  byte[] extraDebugHeader; // replaces the optional debug header's stream numbers
  byte[][] extraStreams = new byte[0][]; // streams 9.. (OMAP, frame data)

  static byte[] moduleSymbols() {
    return new Bytes()
        .u32(4) // CV_SIGNATURE_C13
        .bytes(proc(0x1110, 0x10, 0x20, "main"))
        .u16(2)
        .u16(6) // S_END
        .array();
  }

  /** An {@code S_GPROC32} (or another procedure kind) in section 1. */
  static byte[] proc(int kind, int offset, int size, String name) {
    return proc(kind, offset, size, 0, name);
  }

  /** A procedure record of function type {@code type}. */
  static byte[] proc(int kind, int offset, int size, long type, String name) {
    Bytes body =
        new Bytes()
            .u16(kind)
            .u32(0)
            .u32(0)
            .u32(0)
            .u32(size)
            .u32(0)
            .u32(size)
            .u32(type)
            .u32(offset)
            .u16(1)
            .u8(0)
            .cstring(name)
            .align(4);
    return new Bytes().u16(body.size()).bytes(body.array()).array();
  }

  /** A lines subsection for section 1, offset 0x10, two rows (lines 3 and 4) of file 0. */
  static byte[] c13Lines() {
    Bytes lines =
        new Bytes()
            .u32(0x10)
            .u16(1)
            .u16(0)
            .u32(0x20)
            .u32(0) // file checksum entry
            .u32(2)
            .u32(12 + 16)
            .u32(0)
            .u32(0x80000003L)
            .u32(8)
            .u32(0x80000004L);
    Bytes files = new Bytes().u32(1).u8(0).u8(0).align(4); // "a.c" at offset 1 of /names
    return new Bytes()
        .u32(0xf4)
        .u32(files.size())
        .bytes(files.array())
        .u32(0xf2)
        .u32(lines.size())
        .bytes(lines.array())
        .array();
  }

  static byte[] publics() {
    Bytes body = new Bytes().u16(0x110e).u32(2).u32(0x10).u16(1).cstring("_main").align(4);
    return new Bytes().u16(body.size()).bytes(body.array()).array();
  }

  /** A type stream: the 56-byte header and the records. */
  static byte[] typeStream(byte[] records) {
    return new Bytes()
        .u32(20040203)
        .u32(56)
        .u32(0x1000)
        .u32(0x1000 + 1000)
        .u32(records.length)
        .u16(0xffff)
        .u16(0xffff)
        .u32(0)
        .u32(4)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .bytes(records)
        .array();
  }

  /** A type record of {@code kind} with {@code body} after its kind. */
  static byte[] record(int kind, byte[] body) {
    return new Bytes().u16(body.length + 2).u16(kind).bytes(body).array();
  }

  byte[] build() {
    return msf().build();
  }

  byte[] build(Consumer<int[]> editDirectory) {
    return msf().build(editDirectory);
  }

  MsfBuilder msf() {
    MsfBuilder m = new MsfBuilder(blockSize);
    m.add(new byte[0]);
    Bytes info = new Bytes().u32(20000404).u32(0x5f000000).u32(age).bytes(msGuid());
    Bytes strings = new Bytes().cstring("/names");
    info.u32(strings.size()).bytes(strings.array());
    info.u32(1).u32(1).u32(1).u32(1).u32(0).u32(0).u32(STREAM_NAMES).u32(0);
    m.add(info.array());
    m.add(typeStream(tpiRecords));
    m.add(dbi());
    m.add(typeStream(ipiRecords));
    m.add(publics);
    Bytes text = new Bytes();
    text.bytes(".text\0\0\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    text.u32(0x1000).u32(0x1000).u32(0x1000).u32(0x400).u32(0).u32(0).u16(0).u16(0);
    text.u32(0x60000020L);
    m.add(text.array());
    m.add(new Bytes().bytes(moduleSymbols).bytes(c13).array());
    m.add(
        new Bytes()
            .u32(0xeffeeffeL)
            .u32(1)
            .u32(5)
            .u8(0)
            .cstring("a.c")
            .u32(1)
            .u32(0)
            .u32(0)
            .array());
    for (byte[] s : extraStreams) {
      m.add(s);
    }
    return m;
  }

  /** The GUID as the info stream stores it (its first three fields little-endian). */
  private byte[] msGuid() {
    byte[] g = guid.clone();
    reverse(g, 0, 4);
    reverse(g, 4, 2);
    reverse(g, 6, 2);
    return g;
  }

  private static void reverse(byte[] b, int from, int n) {
    for (int i = 0, j = n - 1; i < j; i++, j--) {
      byte t = b[from + i];
      b[from + i] = b[from + j];
      b[from + j] = t;
    }
  }

  private byte[] dbi() {
    Bytes mod = new Bytes().u32(0);
    mod.u16(1).u16(0).u32(0x10).u32(0x20).u32(0x60000020L).u16(0).u16(0).u32(0).u32(0);
    mod.u16(0).u16(STREAM_MODULE);
    mod.u32(symbolBytesClaim != null ? symbolBytesClaim : moduleSymbols.length);
    mod.u32(0).u32(c13.length).u16(1).u16(0).u32(0).u32(0).u32(0);
    mod.cstring("a.obj").cstring("a.obj").align(4);
    byte[] debugHeader = extraDebugHeader;
    if (debugHeader == null) {
      Bytes h = new Bytes();
      for (int i = 0; i < 11; i++) {
        h.u16(i == 5 ? STREAM_SECTIONS : 0xffff);
      }
      debugHeader = h.array();
    }
    return new Bytes()
        .u32(0xffffffffL)
        .u32(19990903)
        .u32(age)
        .u16(0xffff)
        .u16(0)
        .u16(0xffff)
        .u16(0)
        .u16(STREAM_SYMBOLS)
        .u16(0)
        .u32(mod.size())
        .u32(contributionBytesClaim)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(debugHeader.length)
        .u32(0)
        .u16(0)
        .u16(machine)
        .u32(0)
        .bytes(mod.array())
        .bytes(debugHeader)
        .array();
  }
}
