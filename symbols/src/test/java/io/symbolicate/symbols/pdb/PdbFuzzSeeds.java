package io.symbolicate.symbols.pdb;

import io.symbolicate.symbols.pdb.MsfBuilder.Bytes;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;

/**
 * Writes the seeds of {@link PdbFuzzTests#pdb}: {@link PdbBuilder}'s small PDB (plain, with ids
 * and types, with OMAP and frame data streams), and the fixture PDBs cut down to a few KB (the
 * peers' PDBs are 0.6 to 1.2 MB, mostly type records): the info stream, the DBI with its first
 * modules only, those modules' streams, the section headers, FPO, new FPO and OMAP streams, the
 * string table, and heads of the symbol record, TPI and IPI streams, repacked in 512-byte pages.
 * Run from the module directory: {@code java -cp <test classpath>
 * io.symbolicate.symbols.pdb.PdbFuzzSeeds}.
 */
final class PdbFuzzSeeds {
  static final int MODULES = 3;
  static final int STREAM_HEAD = 4096;
  static final int MAX_MODULE_STREAM = 12 << 10;

  public static void main(String[] args) throws IOException {
    Path out =
        Paths.get(args.length > 0 ? args[0] : "src/test/resources")
            .resolve("io/symbolicate/symbols/pdb/PdbFuzzTestsInputs/pdb");
    Files.createDirectories(out);
    Files.write(out.resolve("seed-built"), new PdbBuilder().build());
    PdbBuilder named = new PdbBuilder();
    named.tpiRecords =
        PdbBuilder.record(
            PdbTypes.LF_STRUCTURE,
            new Bytes().u16(0).u16(0).u32(0).u32(0).u32(0).u16(4).cstring("S").align(4).array());
    named.ipiRecords =
        new Bytes()
            .bytes(
                PdbBuilder.record(
                    PdbTypes.LF_STRING_ID, new Bytes().u32(0).cstring("ns").align(4).array()))
            .bytes(
                PdbBuilder.record(
                    PdbTypes.LF_FUNC_ID,
                    new Bytes().u32(0x1000).u32(0).cstring("f").align(4).array()))
            .bytes(
                PdbBuilder.record(
                    PdbTypes.LF_MFUNC_ID,
                    new Bytes().u32(0x1000).u32(0).cstring("m").align(4).array()))
            .array();
    Files.write(out.resolve("seed-built-ids"), named.build());
    // a static function f(char *, struct S *, ...) returning int, and an inlinee of its type
    PdbBuilder typed = new PdbBuilder();
    typed.tpiRecords =
        new Bytes()
            .bytes(PdbHostileTest.procedure(0x74, 0x1001))
            .bytes(PdbHostileTest.argList(0x470, 0x1002, 0))
            .bytes(PdbHostileTest.pointer(0x1003))
            .bytes(
                PdbBuilder.record(
                    PdbTypes.LF_STRUCTURE,
                    new Bytes()
                        .u16(0)
                        .u16(0x80)
                        .u32(0)
                        .u32(0)
                        .u32(0)
                        .u16(0)
                        .cstring("S")
                        .align(4)
                        .array()))
            .array();
    typed.ipiRecords =
        PdbBuilder.record(
            PdbTypes.LF_FUNC_ID, new Bytes().u32(0).u32(0x1000).cstring("g").align(4).array());
    typed.moduleSymbols =
        new Bytes()
            .u32(4)
            .bytes(PdbBuilder.proc(0x110f, 0x10, 0x20, 0x1000, "f"))
            .u16(2)
            .u16(6)
            .array();
    Files.write(out.resolve("seed-built-signatures"), typed.build());
    String bp = "google-breakpad/src/tools/windows/dump_syms/testdata/";
    for (String f :
        new String[] {
          "getsentry-symbolic/testutils/windows/crash.pdb",
          "getsentry-symbolic/testutils/windows/CrashWithException.pdb",
          bp + "dump_syms_regtest.pdb",
          bp + "dump_syms_regtest64.pdb",
          bp + "omap_reorder_funcs.pdb",
          bp + "omap_stretched.pdb",
        }) {
      Path p = SharedFixtures.fixtures("difs").resolve(f);
      String name = p.getFileName().toString().replace(".pdb", "");
      Files.write(out.resolve("seed-cut-" + name), cut(MsfFile.open(p)));
    }
  }

  /** The PDB cut down as the class comment says. */
  static byte[] cut(MsfFile msf) {
    PdbFile pdb = PdbFile.of(msf);
    MsfBuilder b = new MsfBuilder(512);
    for (int i = 0; i < msf.streamCount(); i++) {
      b.add(msf.hasStream(i) ? new byte[0] : null);
    }
    b.set(PdbFile.STREAM_INFO, bytes(msf.stream(PdbFile.STREAM_INFO, "info")));
    ByteBuffer dbi = msf.stream(PdbFile.STREAM_DBI, "dbi");
    b.set(PdbFile.STREAM_DBI, cutDbi(dbi));
    for (int which = 0; which < 11; which++) {
      int s = pdb.debugStream(which);
      if (s >= 0) {
        b.set(s, head(msf, s, 8 << 10));
      }
    }
    pdb.namedStream("/names").ifPresent(s -> b.set(s, head(msf, s, 8 << 10)));
    int symbols = pdb.symbolRecordStream();
    if (symbols >= 0) {
      b.set(symbols, recordHead(msf.stream(symbols, "symbols"), 0, STREAM_HEAD));
    }
    for (int t : new int[] {PdbTypes.STREAM_TPI, PdbTypes.STREAM_IPI}) {
      if (msf.hasStream(t) && msf.streamSize(t) >= 56) {
        ByteBuffer s = msf.stream(t, "types");
        int header = s.getInt(4);
        byte[] cut = recordHead(s, header, STREAM_HEAD);
        ByteBuffer.wrap(cut).order(ByteOrder.LITTLE_ENDIAN).putInt(16, cut.length - header);
        b.set(t, cut);
      }
    }
    for (int i = 0; i < Math.min(MODULES, pdb.modules().size()); i++) {
      int s = pdb.modules().get(i).stream();
      if (s >= 0 && msf.streamSize(s) <= MAX_MODULE_STREAM) {
        b.set(s, bytes(msf.stream(s, "module")));
      }
    }
    return b.build();
  }

  /** The DBI with its first modules, no contributions, section map, files or EC names. */
  private static byte[] cutDbi(ByteBuffer dbi) {
    int modInfo = dbi.getInt(24);
    int optional = dbi.getInt(48);
    int optAt =
        64
            + modInfo
            + dbi.getInt(28)
            + dbi.getInt(32)
            + dbi.getInt(36)
            + dbi.getInt(40)
            + dbi.getInt(52);
    int at = 64;
    for (int i = 0; i < MODULES && at + 64 <= 64 + modInfo; i++) {
      int end = PdbFile.cStringEnd(dbi, at + 64, 64 + modInfo) + 1;
      end = PdbFile.cStringEnd(dbi, end, 64 + modInfo) + 1;
      at = (end + 3) & ~3;
    }
    byte[] head = new byte[64];
    dbi.get(0, head);
    ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
    h.putInt(24, at - 64);
    for (int o : new int[] {28, 32, 36, 40, 52}) {
      h.putInt(o, 0);
    }
    byte[] mods = new byte[at - 64];
    dbi.get(64, mods);
    byte[] opt = new byte[optional];
    dbi.get(optAt, opt);
    return new Bytes().bytes(head).bytes(mods).bytes(opt).array();
  }

  /** The stream's first whole records after {@code from}, at most {@code max} bytes of them. */
  private static byte[] recordHead(ByteBuffer s, int from, int max) {
    int at = from;
    while (at + 4 <= s.limit()) {
      int next = at + 2 + (s.getShort(at) & 0xffff);
      if (next > s.limit() || next - from > max) {
        break;
      }
      at = next;
    }
    return Arrays.copyOf(bytes(s), at);
  }

  private static byte[] head(MsfFile msf, int stream, int max) {
    ByteBuffer s = msf.stream(stream, "stream");
    return Arrays.copyOf(bytes(s), Math.min(max, s.limit()));
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] a = new byte[b.limit()];
    b.get(0, a);
    return a;
  }
}
