package io.symbolicate.symbols.pdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.management.ThreadMXBean;
import io.symbolicate.symbols.dumpsyms.PdbDumper;
import io.symbolicate.symbols.dumpsyms.SymWriter;
import io.symbolicate.symbols.pdb.MsfBuilder.Bytes;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The MSF/PDB reader on files that lie (issue 45, "Bad input"): each is refused with a {@link
 * PdbFormatException} saying why, without allocating from the count it claims, and without
 * hanging. The files are {@link PdbBuilder}'s small PDB with one part changed.
 */
@Timeout(10)
class PdbHostileTest {
  private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** Reads everything the dumper reads: identity, publics, procedures, lines, ids. */
  static void readAll(byte[] file) {
    PdbFile pdb = PdbFile.parse(file);
    pdb.guid();
    PdbSymbols.publics(pdb);
    for (PdbModule m : pdb.modules()) {
      PdbSymbols.procedures(pdb, m);
      PdbLines.lines(pdb, m, PdbLines.stringTable(pdb));
      PdbInlines.read(pdb, m, PdbLines.stringTable(pdb));
    }
    PdbTypes ids = PdbTypes.ipi(pdb);
    for (int i = 0; i < ids.size(); i++) {
      ids.name(0x1000 + i);
    }
  }

  /** {@link #readAll} of {@code file} fails with a reason, allocating under 16 MB. */
  static void refused(byte[] file, String reason) {
    refused(() -> readAll(file), reason);
  }

  /**
   * Fails with a PdbFormatException whose message has {@code reason}, allocating under 16 MB
   * (class loading included; the claims would cost gigabytes).
   */
  static void refused(ThrowingCallable read, String reason) {
    long before = THREADS.getCurrentThreadAllocatedBytes();
    assertThatThrownBy(read).isInstanceOf(PdbFormatException.class).hasMessageContaining(reason);
    assertThat(THREADS.getCurrentThreadAllocatedBytes() - before).isLessThan(16L << 20);
  }

  /** The directory word of page {@code page} of stream {@code stream}. */
  static int pageWord(int[] words, int stream, int page) {
    int count = words[0];
    int at = 1 + count;
    for (int s = 0; s < stream; s++) {
      at += words[1 + s] < 0 ? 0 : (words[1 + s] + 511) / 512;
    }
    return at + page;
  }

  @Test
  void theBuiltPdbReads() {
    PdbBuilder b = new PdbBuilder();
    PdbFile pdb = PdbFile.parse(b.build());
    assertThat(pdb.age()).isEqualTo(2);
    assertThat(pdb.arch()).isEqualTo("x86");
    PdbModule m = pdb.modules().get(0);
    assertThat(PdbSymbols.procedures(pdb, m))
        .containsExactly(new PdbProcedure("main", 0x1010, 0x20));
    assertThat(PdbLines.lines(pdb, m, PdbLines.stringTable(pdb)))
        .containsExactly(new PdbLine(0x1010, 8, 3, "a.c"), new PdbLine(0x1018, 0x18, 4, "a.c"));
    assertThat(PdbSymbols.publics(pdb)).extracting(PdbPublic::name).containsExactly("_main");
  }

  @Test
  void aPageNumberBeyondTheFileIsRefused() {
    byte[] f = new PdbBuilder().build(w -> w[pageWord(w, PdbBuilder.STREAM_MODULE, 0)] = 1_000_000);
    refused(f, "is page 1000000, past the file's");
  }

  @Test
  void aPageMapPastTheEndIsRefused() {
    byte[] f = new PdbBuilder().build();
    // the stream directory's page map at page 2^31 - 1
    java.nio.ByteBuffer.wrap(f).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(52, 0x7fffffff);
    refused(f, "the stream directory's page map is page 2147483647");
  }

  @Test
  void aDirectoryClaimingTwoToThe31StreamsIsRefusedWithoutAllocating() {
    byte[] f = new PdbBuilder().build(w -> w[0] = 0x80000000);
    refused(f, "claims 2147483648 streams");
    byte[] g = new PdbBuilder().build(w -> w[1 + PdbBuilder.STREAM_MODULE] = 0x7ffffff0);
    refused(g, "more than the stream directory lists");
  }

  @Test
  void aStreamListingAPageTwiceIsRefused() {
    PdbBuilder b = new PdbBuilder();
    b.extraStreams = new byte[][] {new byte[1500]}; // stream 9, three pages
    byte[] f = b.build(w -> w[pageWord(w, 9, 2)] = w[pageWord(w, 9, 0)]);
    MsfFile msf = MsfFile.parse(f);
    refused(() -> msf.stream(9, "stream nine"), "stream 9 lists page");
    // a page of a stream that is the superblock or a free page map: a loop back into the header
    byte[] g = b.build(w -> w[pageWord(w, 9, 1)] = 0);
    refused(() -> MsfFile.parse(g), "holds the superblock or a free page map");
    byte[] h = b.build(w -> w[pageWord(w, 9, 1)] = 2);
    refused(() -> MsfFile.parse(h), "holds the superblock or a free page map");
  }

  @Test
  void aModuleClaimingMoreSymbolsThanItsStreamIsRefused() {
    PdbBuilder b = new PdbBuilder();
    b.symbolBytesClaim = 100_000L;
    byte[] f = b.build();
    refused(f, "claims 100000 bytes of symbols, its stream has");
  }

  @Test
  void substreamsLongerThanTheDbiAreRefused() {
    PdbBuilder b = new PdbBuilder();
    b.contributionBytesClaim = 1 << 20;
    refused(b.build(), "the DBI substreams claim");
    b.contributionBytesClaim = -8;
    refused(b.build(), "a DBI substream has a negative size -8");
  }

  @Test
  void aSymbolRecordRunningPastItsStreamIsRefused() {
    PdbBuilder b = new PdbBuilder();
    b.moduleSymbols = new Bytes().u32(4).u16(0x7000).u16(0x1110).u32(0).array();
    refused(b.build(), "runs past the end");
    // a length of 0 would never move on
    b.moduleSymbols = new Bytes().u32(4).u16(0).u16(0x1110).u32(0).array();
    refused(b.build(), "a symbol record of length 0");
    // a procedure cut before its name
    b.moduleSymbols = new Bytes().u32(4).u16(10).u16(0x1110).u32(0).u32(0).array();
    refused(b.build(), "a procedure record of 12 bytes");
    // a public record past the end of the symbol record stream
    PdbBuilder p = new PdbBuilder();
    p.publics = new Bytes().u16(400).u16(0x110e).u32(0).array();
    refused(p.build(), "runs past the end");
  }

  /** The builder's module symbols with an S_INLINESITE holding {@code annotations}. */
  static byte[] withInlineSite(byte[] annotations) {
    Bytes site = new Bytes().u16(0x114d).u32(0).u32(0).u32(0x1000).bytes(annotations);
    byte[] p = PdbBuilder.proc(0x1110, 0x10, 0x20, "main");
    return new Bytes()
        .u32(4)
        .bytes(p)
        .u16(site.size())
        .bytes(site.array())
        .u16(2)
        .u16(0x114e)
        .u16(2)
        .u16(6)
        .array();
  }

  @Test
  void binaryAnnotationsThatLieAreRefused() {
    PdbBuilder b = new PdbBuilder();
    // a valid site: code offset 3 and line +1, then length 5: lines at 0x1013
    b.moduleSymbols = withInlineSite(new byte[] {0x0b, 0x23, 0x04, 0x05});
    PdbFile pdb = PdbFile.parse(b.build());
    List<PdbInlines.Site> sites =
        PdbInlines.read(pdb, pdb.modules().get(0), PdbLines.stringTable(pdb));
    assertThat(sites).hasSize(1);
    assertThat(sites.get(0).lines()).containsExactly(new PdbLine(0x1013, 5, 1, ""));
    // a first byte no CVUncompressData form has
    b.moduleSymbols = withInlineSite(new byte[] {(byte) 0xff, 0, 0, 0});
    refused(b.build(), "a binary annotation starts with byte 0xff");
    // a two-byte operand cut by the end of the record
    b.moduleSymbols = withInlineSite(new byte[] {0x03, (byte) 0x80});
    refused(b.build(), "a binary annotation is cut at the end of its record");
    // an opcode past ChangeColumnEnd
    b.moduleSymbols = withInlineSite(new byte[] {0x0e, 0x00, 0x00, 0x00});
    refused(b.build(), "binary annotation opcode 14 is unknown");
  }

  @Test
  void inlineSitesNestedPastTheirBoundAreRefused() {
    PdbBuilder b = new PdbBuilder();
    Bytes syms = new Bytes().u32(4).bytes(PdbBuilder.proc(0x1110, 0x10, 0x20, "main"));
    for (int i = 0; i < 300; i++) {
      syms.u16(14).u16(0x114d).u32(0).u32(0).u32(0x1000);
    }
    b.moduleSymbols = syms.array();
    refused(b.build(), "inline sites nested deeper than 256");
  }

  @Test
  void linesPastTheirSubsectionAreRefused() {
    PdbBuilder b = new PdbBuilder();
    // a line block claiming 2^28 rows in a 40-byte subsection
    b.c13 =
        new Bytes()
            .u32(0xf2)
            .u32(24)
            .u32(0x10)
            .u16(1)
            .u16(0)
            .u32(0x20)
            .u32(0)
            .u32(1 << 28)
            .u32(12 + 8)
            .array();
    refused(b.build(), "a line block claims 268435456 lines");
    b.c13 = new Bytes().u32(0xf2).u32(0x7ffffff0).array();
    refused(b.build(), "runs past its end");
  }

  @Test
  void aTypeIndexPointingAtItselfIsRefused() {
    PdbBuilder b = new PdbBuilder();
    // LF_FUNC_ID 0x1000 whose scope is 0x1000
    b.ipiRecords =
        PdbBuilder.record(
            PdbTypes.LF_FUNC_ID, new Bytes().u32(0x1000).u32(0).cstring("f").align(4).array());
    refused(b.build(), "type index 0x1000 refers back to itself");
    // a two-record loop: 0x1000 -> 0x1001 -> 0x1000
    byte[] a =
        PdbBuilder.record(
            PdbTypes.LF_FUNC_ID, new Bytes().u32(0x1001).u32(0).cstring("f").align(4).array());
    byte[] c =
        PdbBuilder.record(
            PdbTypes.LF_FUNC_ID, new Bytes().u32(0x1000).u32(0).cstring("g").align(4).array());
    b.ipiRecords = new Bytes().bytes(a).bytes(c).array();
    refused(b.build(), "refers back to itself");
    // a TPI modifier of itself, reached as a member function's class
    PdbBuilder t = new PdbBuilder();
    t.tpiRecords =
        PdbBuilder.record(PdbTypes.LF_MODIFIER, new Bytes().u32(0x1000).u16(1).u16(0).array());
    t.ipiRecords =
        PdbBuilder.record(
            PdbTypes.LF_MFUNC_ID, new Bytes().u32(0x1000).u32(0).cstring("m").align(4).array());
    refused(t.build(), "type index 0x1000 refers back to itself");
  }

  @Test
  void typeRecordsPastTheirStreamAreRefused() {
    PdbBuilder b = new PdbBuilder();
    b.ipiRecords = new Bytes().u16(0x4000).u16(PdbTypes.LF_STRING_ID).u32(0).array();
    refused(b.build(), "IPI stream: the type record at 0 of 16384 bytes");
  }

  /** The builder's PDB with OMAP tables (streams 9, 10) and frame data (stream 11). */
  static PdbBuilder withOmap(byte[] omapTo, byte[] omapFrom, byte[] frameData) {
    PdbBuilder b = new PdbBuilder();
    b.extraStreams = new byte[][] {omapTo, omapFrom, frameData};
    Bytes h = new Bytes();
    int[] streams = {-1, -1, -1, 9, 10, PdbBuilder.STREAM_SECTIONS, -1, -1, -1, 11, -1};
    for (int s : streams) {
      h.u16(s & 0xffff);
    }
    b.extraDebugHeader = h.array();
    return b;
  }

  static byte[] frameData(int count) {
    Bytes f = new Bytes();
    for (int i = 0; i < count; i++) {
      f.u32(0x1010).u32(0x10 + i).u32(0).u32(0).u32(0).u32(0).u16(0).u16(0).u32(0);
    }
    return f.array();
  }

  @Test
  void omapTablesWhoseRangesAllOverlapAreRefusedBeforeQuadraticWork() {
    // 20,000 image ranges that all come from original 0x1010, met by 300 frame data records
    Bytes to = new Bytes();
    for (int i = 0; i < 20_000; i++) {
      to.u32(0x2000 + 16L * i).u32(0x1010);
    }
    byte[] f =
        withOmap(to.array(), new Bytes().u32(0x1010).u32(0x2000).array(), frameData(300)).build();
    PdbFile pdb = PdbFile.parse(f);
    assertThat(PdbOmap.of(pdb).isIdentity()).isFalse();
    // the frame data meet the bound: skipped with the reason, the functions written
    long before = THREADS.getCurrentThreadAllocatedBytes();
    List<String> notes = PdbDumper.records(pdb, new SymWriter());
    assertThat(THREADS.getCurrentThreadAllocatedBytes() - before).isLessThan(64L << 20);
    assertThat(notes).anyMatch(n -> n.contains("OMAP: the mapped ranges overlap past"));
  }

  @Test
  void frameDataOfPartRecordsIsRefused() {
    byte[] omapTo = new Bytes().u32(0x1000).u32(0x1000).array();
    byte[] f = withOmap(omapTo, omapTo, Arrays.copyOf(frameData(2), 40)).build();
    refused(() -> PdbFrameData.read(PdbFile.parse(f)), "no whole number of 32-byte records");
    // the dumper writes the rest, with a note
    List<String> notes = PdbDumper.records(PdbFile.parse(f), new SymWriter());
    assertThat(notes).anyMatch(n -> n.startsWith("frame data skipped: new FPO stream of 40 bytes"));
  }

  @Test
  void namesResolveThroughScopesAndClasses() {
    PdbBuilder b = new PdbBuilder();
    b.tpiRecords =
        PdbBuilder.record(
            PdbTypes.LF_STRUCTURE,
            new Bytes()
                .u16(0)
                .u16(0x80)
                .u32(0)
                .u32(0)
                .u32(0)
                .u16(4)
                .cstring("ns::S")
                .align(4)
                .array());
    b.ipiRecords =
        new Bytes()
            .bytes(
                PdbBuilder.record(
                    PdbTypes.LF_STRING_ID, new Bytes().u32(0).cstring("ns").align(4).array()))
            .bytes(
                PdbBuilder.record(
                    PdbTypes.LF_FUNC_ID,
                    new Bytes().u32(0x1000).u32(0).cstring("free").align(4).array()))
            .bytes(
                PdbBuilder.record(
                    PdbTypes.LF_MFUNC_ID,
                    new Bytes().u32(0x1000).u32(0).cstring("member").align(4).array()))
            .array();
    PdbTypes ids = PdbTypes.ipi(PdbFile.parse(b.build()));
    assertThat(List.of(ids.name(0x1001), ids.name(0x1002)))
        .containsExactly("ns::free", "ns::S::member");
    assertThat(ids.name(0x2000)).isNull();
  }

  // ---- argument lists from the TPI (PdbSignatures) ----

  static byte[] procedure(long returns, long args) {
    return PdbBuilder.record(
        PdbSignatures.LF_PROCEDURE, new Bytes().u32(returns).u8(0).u8(0).u16(0).u32(args).array());
  }

  static byte[] argList(long... types) {
    Bytes b = new Bytes().u32(types.length);
    for (long t : types) {
      b.u32(t);
    }
    return PdbBuilder.record(PdbSignatures.LF_ARGLIST, b.array());
  }

  static byte[] pointer(long to) {
    return PdbBuilder.record(PdbTypes.LF_POINTER, new Bytes().u32(to).u32(0x800a).array());
  }

  /** A PDB whose one procedure is a static function {@code f} of type 0x1000 in {@code types}. */
  static PdbFile staticFunction(byte[]... types) {
    PdbBuilder b = new PdbBuilder();
    Bytes tpi = new Bytes();
    for (byte[] t : types) {
      tpi.bytes(t);
    }
    b.tpiRecords = tpi.array();
    b.moduleSymbols =
        new Bytes()
            .u32(4)
            .bytes(PdbBuilder.proc(0x110f, 0x10, 0x20, 0x1000, "f")) // S_LPROC32
            .u16(2)
            .u16(6)
            .array();
    return PdbFile.parse(b.build());
  }

  /**
   * The static function's name is refused with {@code reason} (bounded), and the dumper writes
   * the bare name with a note.
   */
  static void nameRefused(PdbFile pdb, String reason) throws Exception {
    PdbProcedure f = PdbSymbols.procedures(pdb, pdb.modules().get(0)).get(0);
    assertThat(f.global()).isFalse();
    refused(() -> PdbSignatures.of(pdb).staticFunction(f), reason);
    SymWriter w = new SymWriter();
    List<String> notes = PdbDumper.records(pdb, w);
    assertThat(notes).anyMatch(n -> n.contains("without argument list") && n.contains(reason));
    StringWriter text = new StringWriter();
    w.writeTo(text);
    assertThat(text.toString()).contains("FUNC 1010 20 0 f\n");
  }

  @Test
  void aWellFormedStaticFunctionIsNamedFromItsType() {
    // static int f(char *, ...), as DIA writes it
    PdbFile pdb = staticFunction(procedure(0x74, 0x1001), argList(0x470, 0));
    PdbProcedure f = PdbSymbols.procedures(pdb, pdb.modules().get(0)).get(0);
    assertThat(PdbSignatures.of(pdb).staticFunction(f)).isEqualTo("static int f(char *, ...)");
  }

  @Test
  void aTypeThatComesBackToItselfIsCut() throws Exception {
    nameRefused(
        staticFunction(procedure(0x1002, 0x1001), argList(0x1002), pointer(0x1002)),
        "type index 0x1002 refers back to itself");
  }

  @Test
  void aTypeIndexPastTheStreamIsRefused() throws Exception {
    nameRefused(
        staticFunction(procedure(0x74, 0x1001), argList(0x9999)),
        "type index 0x9999 names no type record");
  }

  @Test
  void anArgumentListClaimingMoreThanItsRecordIsRefused() throws Exception {
    byte[] list =
        PdbBuilder.record(PdbSignatures.LF_ARGLIST, new Bytes().u32(1_000_000).u32(0x74).array());
    nameRefused(
        staticFunction(procedure(0x74, 0x1001), list),
        "argument list 0x1001 claims 1000000 arguments in 12 bytes");
  }

  @Test
  void deepNestingIsCut() throws Exception {
    byte[][] types = new byte[102][];
    types[0] = procedure(0x74, 0x1001);
    types[1] = argList(0x1002);
    for (int i = 2; i < types.length; i++) { // 100 pointers, each to the next
      types[i] = pointer(i == types.length - 1 ? 0x74 : 0x1000 + i + 1);
    }
    nameRefused(staticFunction(types), "a chain of more than 64");
  }

  @Test
  void typesThatMultiplyAreCutAtTheWorkBound() throws Exception {
    // 40 argument lists of two arguments each, both the next list: 2^40 types to print
    byte[][] types = new byte[42][];
    types[0] = procedure(0x74, 0x1001);
    for (int i = 1; i < types.length; i++) {
      long next = i == types.length - 1 ? 0x74 : 0x1000 + i + 1;
      types[i] = argList(next, next);
    }
    nameRefused(staticFunction(types), "a name of more than 4096 type records");
  }

  @Test
  void anInlineeOfALoopingTypeKeepsItsQualifiedName() {
    PdbBuilder b = new PdbBuilder();
    b.tpiRecords =
        new Bytes()
            .bytes(procedure(0x74, 0x1001))
            .bytes(argList(0x1002))
            .bytes(pointer(0x1002))
            .array();
    b.ipiRecords =
        new Bytes()
            .bytes(
                PdbBuilder.record(
                    PdbTypes.LF_STRING_ID, new Bytes().u32(0).cstring("?A0x1f2e").align(4).array()))
            .bytes(
                PdbBuilder.record(
                    PdbTypes.LF_FUNC_ID,
                    new Bytes().u32(0x1000).u32(0x1000).cstring("g").align(4).array()))
            .array();
    PdbSignatures s = PdbSignatures.of(PdbFile.parse(b.build()));
    refused(() -> s.inlinee(0x1001), "type index 0x1002 refers back to itself");
    assertThat(s.qualifiedName(0x1001)).isEqualTo("`anonymous namespace'::g");
  }
}
