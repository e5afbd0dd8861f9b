package io.symbolicate.symbols.symbfile;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.symbolicate.symbols.symbfile.proto.LineTable;
import io.symbolicate.symbols.symbfile.proto.RangeV1;
import io.symbolicate.symbols.symbfile.proto.ReturnPadV1;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reader decodes RangeV1 and ReturnPadV1 bodies field by field (CodedInputStream, no
 * message objects); protobuf-java's generated parser of the same .proto is the oracle. Bodies
 * are written at the wire level in every shape the format allows (fields in any order and
 * repeated, both members of a oneof, packed and unpacked repeated fields, a line table in two
 * pieces, unknown fields of every wire type, non-ASCII and invalid UTF-8 strings) and then
 * mutated (bytes flipped, cut, inserted): where the generated parser refuses a body, the reader
 * says it does not parse; where it accepts, the reader gives the record the format's rules make
 * of the parsed message, or refuses it for the same reason.
 */
class SymbfileWireTest {
  private static final List<String> TABLE = List.of("t0", "t1", "t\u00e4", "\u65e5\u672c");
  private static final long BASE = 0x10000;
  private static final String BASE_FILE = "base.c";

  private final Random rnd = new Random(30);

  @Test
  void rangesDecodeAsTheGeneratedParserDoes() throws IOException {
    int parsed = 0;
    int refused = 0;
    for (int i = 0; i < 6000; i++) {
      byte[] body = rangeBody();
      if (i % 3 != 0) {
        body = mutate(body);
      }
      if (checkRange(body)) {
        parsed++;
      } else {
        refused++;
      }
    }
    // both sides of the oracle are exercised
    assertThat(parsed).isGreaterThan(1000);
    assertThat(refused).isGreaterThan(500);
  }

  @Test
  void returnPadsDecodeAsTheGeneratedParserDoes() throws IOException {
    int parsed = 0;
    int refused = 0;
    for (int i = 0; i < 6000; i++) {
      byte[] body = padBody();
      if (i % 3 != 0) {
        body = mutate(body);
      }
      if (checkPad(body)) {
        parsed++;
      } else {
        refused++;
      }
    }
    assertThat(parsed).isGreaterThan(1000);
    assertThat(refused).isGreaterThan(500);
  }

  @Test
  void utf8CheckAgreesWithTheJdkDecoder() {
    for (int i = 0; i < 200_000; i++) {
      byte[] b = new byte[rnd.nextInt(6)];
      for (int j = 0; j < b.length; j++) {
        b[j] = (byte) (rnd.nextBoolean() ? 0x80 + rnd.nextInt(0x80) : rnd.nextInt(256));
      }
      boolean jdk;
      try {
        StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(b));
        jdk = true;
      } catch (CharacterCodingException e) {
        jdk = false;
      }
      assertThat(Utf8Check.isValid(b, 0, b.length)).as(Arrays.toString(b)).isEqualTo(jdk);
    }
  }

  // ---------------------------------------------------------------- oracle

  /** Returns whether the generated parser accepted the body. */
  private boolean checkRange(byte[] body) throws IOException {
    RangeV1 m;
    try {
      m = RangeV1.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      assertThat(readError(SymbfileReader.MT_RANGE_V1, body)).contains("(RangeV1) does not parse");
      return false;
    }
    String why = rangeError(m);
    if (why != null) {
      assertThat(readError(SymbfileReader.MT_RANGE_V1, body)).as(m.toString()).contains(why);
      return true;
    }
    SymbfileRange r = (SymbfileRange) read(SymbfileReader.MT_RANGE_V1, body);
    assertThat(r.elfVa())
        .isEqualTo(
            va(
                m.getElfVACase() == RangeV1.ElfVACase.DELTAELFVA,
                m.getElfVACase() == RangeV1.ElfVACase.SETELFVA,
                m.getDeltaElfVA(),
                m.getSetElfVA()));
    assertThat(r.length()).isEqualTo(m.getLength());
    assertThat(r.depth()).isEqualTo(m.getDepth());
    assertThat(r.callLine()).isEqualTo(m.getCallLine());
    assertThat(r.function())
        .isEqualTo(
            switch (m.getFuncCase()) {
              case FUNCSTR -> m.getFuncStr();
              case FUNCREF -> TABLE.get(m.getFuncRef());
              default -> null;
            });
    assertThat(r.file())
        .isEqualTo(
            switch (m.getFileCase()) {
              case FILESTR -> m.getFileStr();
              case FILEREF -> TABLE.get(m.getFileRef());
              default -> null;
            });
    assertThat(r.callFile())
        .isEqualTo(
            switch (m.getCallFileCase()) {
              case CALLFILESTR -> m.getCallFileStr();
              case CALLFILEREF -> TABLE.get(m.getCallFileRef());
              default -> m.getDepth() == 1 ? BASE_FILE : null;
            });
    LineTable t = m.getLineTable();
    long[] sums = new long[t.getOffsetCount()];
    long sum = 0;
    for (int i = 0; i < sums.length; i++) {
      sum += Integer.toUnsignedLong(t.getOffset(i));
      sums[i] = sum;
    }
    assertThat(r.lineOffsets()).containsExactly(sums);
    assertThat(r.lineNumbers())
        .containsExactly(t.getLineNumberList().stream().mapToInt(Integer::intValue).toArray());
    return true;
  }

  /** The reader's reason for a parsed range it must refuse, in the order it checks; null: valid. */
  private static String rangeError(RangeV1 m) {
    boolean delta = m.getElfVACase() == RangeV1.ElfVACase.DELTAELFVA;
    if (delta && vaOverflows(m.getDeltaElfVA())) {
      return "outside the 64-bit address space";
    }
    long va =
        va(
            delta,
            m.getElfVACase() == RangeV1.ElfVACase.SETELFVA,
            m.getDeltaElfVA(),
            m.getSetElfVA());
    if (m.getLength() != 0 && Long.compareUnsigned(m.getLength() - 1, -1L - va) > 0) {
      return "overflows the 64-bit address space";
    }
    if (m.getDepth() < 0 || m.getDepth() > SymbfileReader.MAX_DEPTH) {
      return "more than the limit of " + SymbfileReader.MAX_DEPTH;
    }
    if (m.getDepth() > 1) {
      return "the inline chain has a hole";
    }
    if (m.getFuncCase() == RangeV1.FuncCase.FUNCREF && badRef(m.getFuncRef())) {
      return "(funcRef) of a table of " + TABLE.size();
    }
    if (m.getFileCase() == RangeV1.FileCase.FILEREF && badRef(m.getFileRef())) {
      return "(fileRef) of a table of " + TABLE.size();
    }
    if (m.getCallFileCase() == RangeV1.CallFileCase.CALLFILEREF && badRef(m.getCallFileRef())) {
      return "(callFileRef) of a table of " + TABLE.size();
    }
    LineTable t = m.getLineTable();
    if (t.getOffsetCount() != t.getLineNumberCount()) {
      return "line table of "
          + t.getOffsetCount()
          + " offsets but "
          + t.getLineNumberCount()
          + " line numbers";
    }
    long sum = 0;
    for (int i = 0; i < t.getOffsetCount(); i++) {
      sum += Integer.toUnsignedLong(t.getOffset(i));
      if (Long.compareUnsigned(sum, -1L - va) > 0) {
        return "line-table offset that overflows";
      }
    }
    return null;
  }

  private boolean checkPad(byte[] body) throws IOException {
    ReturnPadV1 m;
    try {
      m = ReturnPadV1.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      assertThat(readError(SymbfileReader.MT_RETURN_PAD_V1, body))
          .contains("(ReturnPadV1) does not parse");
      return false;
    }
    boolean delta = m.getElfVACase() == ReturnPadV1.ElfVACase.DELTAELFVA;
    String why = null;
    if (delta && vaOverflows(m.getDeltaElfVA())) {
      why = "outside the 64-bit address space";
    } else if (m.getFileCount() != m.getFuncCount() || m.getLineCount() != m.getFuncCount()) {
      why =
          m.getFuncCount()
              + " functions, "
              + m.getFileCount()
              + " files and "
              + m.getLineCount()
              + " lines";
    } else {
      for (int i = 0; i < m.getFuncCount() && why == null; i++) {
        why =
            badRef(m.getFunc(i))
                ? "(func) of a table of " + TABLE.size()
                : badRef(m.getFile(i)) ? "(file) of a table of " + TABLE.size() : null;
      }
    }
    if (why != null) {
      assertThat(readError(SymbfileReader.MT_RETURN_PAD_V1, body)).as(m.toString()).contains(why);
      return true;
    }
    SymbfileReturnPad p = (SymbfileReturnPad) read(SymbfileReader.MT_RETURN_PAD_V1, body);
    assertThat(p.elfVa())
        .isEqualTo(
            va(
                delta,
                m.getElfVACase() == ReturnPadV1.ElfVACase.SETELFVA,
                m.getDeltaElfVA(),
                m.getSetElfVA()));
    assertThat(p.functions())
        .containsExactly(m.getFuncList().stream().map(TABLE::get).toArray(String[]::new));
    assertThat(p.files())
        .containsExactly(m.getFileList().stream().map(TABLE::get).toArray(String[]::new));
    assertThat(p.lines())
        .containsExactly(m.getLineList().stream().mapToInt(Integer::intValue).toArray());
    return true;
  }

  private static boolean badRef(int ref) {
    return ref < 0 || ref >= TABLE.size();
  }

  private static boolean vaOverflows(long delta) {
    long to = BASE + delta;
    return delta >= 0 ? Long.compareUnsigned(to, BASE) < 0 : Long.compareUnsigned(to, BASE) > 0;
  }

  private static long va(boolean delta, boolean set, long d, long s) {
    return delta ? BASE + d : set ? s : BASE;
  }

  // ---------------------------------------------------------------- the file around a body

  /** Magic, Header, the string table, a depth-0 range at BASE in BASE_FILE, then the body. */
  private static byte[] file(int type, byte[] body) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (SymbfileWriter w = new SymbfileWriter(b)) {
      w.stringTable(TABLE);
      w.range(BASE, 0x100000, "base", BASE_FILE, 0, null, 0, new long[0], new int[0]);
      w.message(type, body);
    }
    return b.toByteArray();
  }

  private static SymbfileRecord read(int type, byte[] body) throws IOException {
    try (SymbfileReader r = new SymbfileReader(new ByteArrayInputStream(file(type, body)))) {
      assertThat(r.next()).isInstanceOf(SymbfileRange.class);
      SymbfileRecord rec = r.next();
      assertThat(r.next()).isNull();
      return rec;
    } catch (SymbfileException e) {
      throw new AssertionError("refused what the generated parser accepts: " + e.getMessage(), e);
    }
  }

  private static String readError(int type, byte[] body) throws IOException {
    try (SymbfileReader r = new SymbfileReader(new ByteArrayInputStream(file(type, body)))) {
      r.next();
      SymbfileRecord rec = r.next();
      throw new AssertionError("accepted " + rec + " where an error was expected");
    } catch (SymbfileException e) {
      return e.getMessage();
    }
  }

  // ---------------------------------------------------------------- bodies

  private byte[] rangeBody() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream o = CodedOutputStream.newInstance(bytes);
    int fields = rnd.nextInt(12);
    for (int i = 0; i < fields; i++) {
      switch (rnd.nextInt(14)) {
        case 0 -> o.writeSInt64(RangeV1.DELTAELFVA_FIELD_NUMBER, smallOrAny());
        case 1 -> o.writeUInt64(RangeV1.SETELFVA_FIELD_NUMBER, smallOrAny());
        case 2 ->
            o.writeUInt64(
                RangeV1.LENGTH_FIELD_NUMBER,
                rnd.nextInt(8) == 0 ? rnd.nextLong() : rnd.nextInt(0x1000));
        case 3 -> o.writeByteArray(RangeV1.FUNCSTR_FIELD_NUMBER, string());
        case 4 -> o.writeUInt32(RangeV1.FUNCREF_FIELD_NUMBER, ref());
        case 5 -> o.writeByteArray(RangeV1.FILESTR_FIELD_NUMBER, string());
        case 6 -> o.writeUInt32(RangeV1.FILEREF_FIELD_NUMBER, ref());
        case 7 -> o.writeUInt32(RangeV1.CALLLINE_FIELD_NUMBER, rnd.nextInt(100));
        case 8 -> o.writeByteArray(RangeV1.CALLFILESTR_FIELD_NUMBER, string());
        case 9 -> o.writeUInt32(RangeV1.CALLFILEREF_FIELD_NUMBER, ref());
        case 10 ->
            o.writeUInt32(
                RangeV1.DEPTH_FIELD_NUMBER, rnd.nextInt(10) == 0 ? rnd.nextInt() : rnd.nextInt(3));
        case 11, 12 -> o.writeByteArray(RangeV1.LINETABLE_FIELD_NUMBER, lineTable());
        default -> unknown(o, 13 + rnd.nextInt(6));
      }
    }
    o.flush();
    return bytes.toByteArray();
  }

  private byte[] lineTable() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream o = CodedOutputStream.newInstance(bytes);
    int n = rnd.nextInt(5);
    int[] off = new int[n];
    int[] line = new int[n];
    for (int i = 0; i < n; i++) {
      off[i] = rnd.nextInt(20) == 0 ? rnd.nextInt() : rnd.nextInt(64);
      line[i] = rnd.nextInt(200);
    }
    int lines = rnd.nextInt(10) == 0 ? Math.max(0, n - 1) : n; // sometimes one line short
    repeated(o, LineTable.OFFSET_FIELD_NUMBER, off, n);
    if (rnd.nextInt(4) == 0) {
      unknown(o, 3 + rnd.nextInt(3));
    }
    repeated(o, LineTable.LINENUMBER_FIELD_NUMBER, line, lines);
    o.flush();
    return bytes.toByteArray();
  }

  private byte[] padBody() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream o = CodedOutputStream.newInstance(bytes);
    int n = rnd.nextInt(5);
    int[] funcs = new int[n];
    int[] files = new int[n];
    int[] lines = new int[n];
    for (int i = 0; i < n; i++) {
      funcs[i] = ref();
      files[i] = ref();
      lines[i] = rnd.nextInt(100);
    }
    if (rnd.nextBoolean()) {
      o.writeSInt64(ReturnPadV1.DELTAELFVA_FIELD_NUMBER, smallOrAny());
    }
    if (rnd.nextInt(4) == 0) {
      o.writeUInt64(ReturnPadV1.SETELFVA_FIELD_NUMBER, smallOrAny());
    }
    repeated(o, ReturnPadV1.FUNC_FIELD_NUMBER, funcs, n);
    if (rnd.nextInt(4) == 0) {
      unknown(o, 6 + rnd.nextInt(4));
    }
    repeated(
        o, ReturnPadV1.FILE_FIELD_NUMBER, files, rnd.nextInt(12) == 0 ? Math.max(0, n - 1) : n);
    repeated(o, ReturnPadV1.LINE_FIELD_NUMBER, lines, n);
    o.flush();
    return bytes.toByteArray();
  }

  /** Elements [0, n) of a repeated uint32: packed, unpacked, or packed in two runs. */
  private void repeated(CodedOutputStream o, int field, int[] v, int n) throws IOException {
    int how = rnd.nextInt(3);
    if (how == 0) {
      for (int i = 0; i < n; i++) {
        o.writeUInt32(field, v[i]);
      }
      return;
    }
    int cut = how == 1 ? n : rnd.nextInt(n + 1);
    for (int[] run : new int[][] {Arrays.copyOfRange(v, 0, cut), Arrays.copyOfRange(v, cut, n)}) {
      if (run.length == 0) {
        continue;
      }
      int size = 0;
      for (int x : run) {
        size += CodedOutputStream.computeUInt32SizeNoTag(x);
      }
      o.writeTag(field, 2);
      o.writeUInt32NoTag(size);
      for (int x : run) {
        o.writeUInt32NoTag(x);
      }
    }
  }

  /** A field the reader does not know, of a random wire type. */
  private void unknown(CodedOutputStream o, int field) throws IOException {
    switch (rnd.nextInt(4)) {
      case 0 -> o.writeUInt64(field, rnd.nextLong());
      case 1 -> o.writeFixed64(field, rnd.nextLong());
      case 2 -> o.writeByteArray(field, new byte[rnd.nextInt(4)]);
      default -> o.writeFixed32(field, rnd.nextInt());
    }
  }

  private long smallOrAny() {
    return switch (rnd.nextInt(4)) {
      case 0 -> rnd.nextLong();
      case 1 -> -rnd.nextInt(0x20000);
      default -> rnd.nextInt(0x10000);
    };
  }

  private int ref() {
    return rnd.nextInt(12) == 0 ? rnd.nextInt() : rnd.nextInt(TABLE.size() + 1);
  }

  private byte[] string() {
    return switch (rnd.nextInt(5)) {
      case 0 -> new byte[] {'f', (byte) 0xC3}; // cut in a two-byte sequence: invalid UTF-8
      case 1 -> "f\u00fc\u00df".getBytes(StandardCharsets.UTF_8);
      case 2 -> new byte[0];
      default -> ("fn" + rnd.nextInt(50)).getBytes(StandardCharsets.UTF_8);
    };
  }

  private byte[] mutate(byte[] body) {
    byte[] b = body;
    int edits = 1 + rnd.nextInt(3);
    for (int e = 0; e < edits; e++) {
      switch (rnd.nextInt(3)) {
        case 0 -> {
          if (b.length > 0) {
            b = b.clone();
            b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
          }
        }
        case 1 -> b = Arrays.copyOf(b, rnd.nextInt(b.length + 1));
        default -> {
          int at = rnd.nextInt(b.length + 1);
          List<Byte> l = new ArrayList<>();
          for (byte x : b) {
            l.add(x);
          }
          l.add(at, (byte) rnd.nextInt(256));
          b = new byte[l.size()];
          for (int i = 0; i < b.length; i++) {
            b[i] = l.get(i);
          }
        }
      }
    }
    return b;
  }
}
