package io.symbolicate.symbols.symbfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.symbfile.proto.LineTable;
import io.symbolicate.symbols.symbfile.proto.RangeV1;
import io.symbolicate.symbols.symbfile.proto.ReturnPadV1;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/**
 * Symbfiles an uploader or a store can hand us: each is read or refused with a checked
 * {@link SymbfileException} and a reason; nothing unchecked escapes, nothing is allocated from a
 * claimed size.
 */
class SymbfileHostileInputTest {

  interface Body {
    void write(SymbfileWriter w) throws IOException;
  }

  static byte[] file(Body body) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (SymbfileWriter w = new SymbfileWriter(b)) {
      body.write(w);
    }
    return b.toByteArray();
  }

  static AbstractThrowableAssert<?, ? extends Throwable> refused(byte[] bytes) {
    return assertThatThrownBy(
            () ->
                SymbfileConverter.convert(
                    new SymbfileConverter.Module("m", "x86_64", null),
                    new ByteArrayInputStream(bytes)))
        .isInstanceOf(SymbfileException.class);
  }

  static NativeTable convert(byte[] bytes) throws Exception {
    return SymbfileConverter.convert(
        new SymbfileConverter.Module("m", "x86_64", null), new ByteArrayInputStream(bytes));
  }

  @Test
  void notASymbfile() throws IOException {
    refused(new byte[0]).hasMessageContaining("empty input");
    refused("<html>404</html>".getBytes()).hasMessageContaining("does not start with the magic");
    refused("symbfile".getBytes()).hasMessageContaining("no Header");
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    new SymbfileWriter(b, false).message(2, RangeV1.newBuilder().setLength(1).build());
    refused(b.toByteArray()).hasMessageContaining("starts with a Header");
  }

  @Test
  void oversizedAndGigabyteLengthClaims() throws IOException {
    byte[] over = file(w -> w.message(2, new byte[SymbfileReader.MAX_MESSAGE_BYTES + 1]));
    refused(over).hasMessageContaining("claims 16777217 bytes, more than the limit");
    // a gigabyte claimed, a few bytes there: refused at the claim, before reading or allocating
    byte[] giga = file(w -> {});
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(giga);
    b.write(SymbfileWriter.uleb(1L << 30));
    b.write(2);
    b.write(new byte[] {1, 2, 3});
    refused(b.toByteArray()).hasMessageContaining("claims 1073741824 bytes");
    // the largest claim a 64-bit varint holds
    b.reset();
    b.write(giga);
    b.write(SymbfileWriter.uleb(-1L));
    b.write(2);
    refused(b.toByteArray()).hasMessageContaining("claims 18446744073709551615 bytes");
  }

  @Test
  void truncations() throws IOException {
    byte[] ok =
        file(w -> w.range(0x1000, 0x10, "f", "a.c", 0, null, 0, new long[] {0}, new int[] {1}));
    for (int cut = 9; cut < ok.length; cut++) {
      byte[] part = Arrays.copyOf(ok, cut);
      if (cut == 10) {
        continue; // magic + the whole Header: a complete file without ranges
      }
      refused(part).hasMessageContaining("truncated");
    }
    byte[] varint = file(w -> {});
    byte[] cutVarint = Arrays.copyOf(varint, varint.length + 2);
    cutVarint[varint.length] = (byte) 0x80;
    cutVarint[varint.length + 1] = (byte) 0x80;
    refused(cutVarint).hasMessageContaining("truncated in the message length");
    byte[] tooLong = Arrays.copyOf(varint, varint.length + 11);
    Arrays.fill(tooLong, varint.length, tooLong.length, (byte) 0xFF);
    refused(tooLong).hasMessageContaining("more than 64 bits");
  }

  @Test
  void stringReferences() throws IOException {
    refused(
            file(
                w ->
                    w.message(
                        2, RangeV1.newBuilder().setSetElfVA(1).setLength(1).setFuncRef(0).build())))
        .hasMessageContaining("refers to string 0 (funcRef) before any string table");
    refused(
            file(
                w -> {
                  w.stringTable(List.of("a", "b"));
                  w.message(
                      2, RangeV1.newBuilder().setSetElfVA(1).setLength(1).setFileRef(2).build());
                }))
        .hasMessageContaining("refers to string 2 (fileRef) of a table of 2");
    refused(
            file(
                w -> {
                  w.stringTable(List.of("a", "b"));
                  w.message(
                      2,
                      RangeV1.newBuilder().setSetElfVA(1).setLength(1).setCallFileRef(-1).build());
                }))
        .hasMessageContaining("refers to string 4294967295 (callFileRef)");
    // a new table replaces the old one: index 1 no longer exists
    refused(
            file(
                w -> {
                  w.stringTable(List.of("a", "b"));
                  w.stringTable(List.of("c"));
                  w.message(
                      3,
                      ReturnPadV1.newBuilder()
                          .setSetElfVA(5)
                          .addFunc(1)
                          .addFile(0)
                          .addLine(1)
                          .build());
                }))
        .hasMessageContaining("refers to string 1 (func) of a table of 1");
    refused(
            file(
                w -> {
                  w.stringTable(List.of("a"));
                  w.message(
                      3, ReturnPadV1.newBuilder().setSetElfVA(5).addFunc(0).addLine(1).build());
                }))
        .hasMessageContaining("1 functions, 0 files and 1 lines");
    // a string table that is not one
    refused(file(w -> w.message(4, new byte[] {0x0A, 0x05, 'a'})))
        .hasMessageContaining("(StringTableV1) does not parse");
  }

  @Test
  void addressesThatOverflow() throws IOException {
    refused(file(w -> w.message(2, RangeV1.newBuilder().setSetElfVA(-16L).setLength(17).build())))
        .hasMessageContaining("overflows the 64-bit address space");
    refused(
            file(
                w -> {
                  w.message(2, RangeV1.newBuilder().setSetElfVA(-16L).setLength(16).build());
                  w.message(3, ReturnPadV1.newBuilder().setDeltaElfVA(16).build());
                }))
        .hasMessageContaining("moves the address 0xfffffffffffffff0 by 16");
    refused(file(w -> w.message(2, RangeV1.newBuilder().setDeltaElfVA(-1).setLength(1).build())))
        .hasMessageContaining("moves the address 0x0 by -1");
    refused(
            file(
                w ->
                    w.message(
                        2,
                        RangeV1.newBuilder()
                            .setSetElfVA(-(1L << 33))
                            .setLength(1)
                            .setLineTable(
                                LineTable.newBuilder()
                                    .addOffset(-1)
                                    .addLineNumber(1)
                                    .addOffset(-1)
                                    .addLineNumber(2)
                                    .addOffset(2)
                                    .addLineNumber(3))
                            .build())))
        .hasMessageContaining("line-table offset that overflows");
    refused(
            file(
                w ->
                    w.message(
                        2,
                        RangeV1.newBuilder()
                            .setSetElfVA(1)
                            .setLength(1)
                            .setLineTable(LineTable.newBuilder().addOffset(0))
                            .build())))
        .hasMessageContaining("1 offsets but 0 line numbers");
  }

  @Test
  void depthChainsWithHoles() throws IOException {
    refused(file(w -> w.range(0x10, 4, "f", null, 0, null, 1, new long[0], new int[0])))
        .hasMessageContaining("at depth 1 follows no range");
    refused(
            file(
                w -> {
                  w.range(0x10, 4, "f", null, 0, null, 0, new long[0], new int[0]);
                  w.range(0x10, 4, "g", null, 1, null, 1, new long[0], new int[0]);
                  w.range(0x10, 4, "h", null, 1, null, 3, new long[0], new int[0]);
                }))
        .hasMessageContaining("at depth 3 follows a range at depth 1");
    refused(file(w -> w.message(2, RangeV1.newBuilder().setLength(1).setDepth(-1).build())))
        .hasMessageContaining("depth 4294967295, more than the limit");
  }

  @Test
  void garbageBodiesAndRandomBytes() throws IOException {
    refused(file(w -> w.message(2, new byte[] {(byte) 0xFF, (byte) 0xFF})))
        .hasMessageContaining("(RangeV1) does not parse");
    refused(file(w -> w.message(3, new byte[] {0x12, 0x7F})))
        .hasMessageContaining("(ReturnPadV1) does not parse");
    Random rnd = new Random(7);
    byte[] head = file(w -> {});
    for (int i = 0; i < 2000; i++) {
      byte[] junk = new byte[rnd.nextInt(200)];
      rnd.nextBytes(junk);
      byte[] all = new byte[head.length + junk.length];
      System.arraycopy(head, 0, all, 0, head.length);
      System.arraycopy(junk, 0, all, head.length, junk.length);
      try {
        convert(all);
      } catch (SymbfileException expected) {
        assertThat(expected.getMessage()).isNotBlank();
      } catch (Exception e) {
        throw new AssertionError("random input " + i + " escaped as " + e, e);
      }
    }
  }

  /** Unknown message types are skipped, 10^6 of them too, in constant memory. */
  @Test
  void aMillionTinyMessages() throws Exception {
    int n = 1_000_000;
    byte[] head =
        file(w -> w.range(0x100, 0x10, "f", "a.c", 0, null, 0, new long[] {0}, new int[] {3}));
    byte[] tiny = {0, 77}; // an empty message of an unknown type
    InputStream many =
        new InputStream() {
          long left = 2L * n;

          @Override
          public int read() {
            return left-- > 0 ? tiny[(int) (left & 1) ^ 1] : -1;
          }

          @Override
          public int read(byte[] b, int off, int len) {
            int k = 0;
            while (k < len && left > 0) {
              b[off + k++] = (byte) read();
            }
            return k == 0 ? -1 : k;
          }
        };
    try (SymbfileReader r =
        new SymbfileReader(new SequenceInputStream(new ByteArrayInputStream(head), many))) {
      assertThat(r.next()).isInstanceOf(SymbfileRange.class);
      assertThat(r.next()).isNull();
      assertThat(r.skippedCount()).isEqualTo(n);
      assertThat(r.messageCount()).isEqualTo(n + 2);
    }
    // and 10^6 tiny ranges convert (one FUNC each)
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (SymbfileWriter w = new SymbfileWriter(b)) {
      for (int i = 0; i < n; i++) {
        w.message(2, RangeV1.newBuilder().setDeltaElfVA(i == 0 ? 0x1000 : 2).setLength(2).build());
      }
    }
    NativeTable t = convert(b.toByteArray());
    assertThat(t.nativeHeader().functionCount()).isEqualTo(n);
    assertThat(NativeSymbolizer.inMemory(t).lookup(0x1000 + 2L * (n - 1) + 1).functionBase())
        .isEqualTo(0x1000 + 2L * (n - 1));
  }

  @Test
  void unknownTypesAndRepeatedHeadersAreSkipped() throws Exception {
    NativeTable t =
        convert(
            file(
                w -> {
                  w.message(42, new byte[] {1, 2, 3});
                  w.message(1, new byte[0]);
                  w.message(0, new byte[0]);
                  w.range(0x100, 0x10, "f", "a.c", 0, null, 0, new long[] {0, 4}, new int[] {3, 0});
                }));
    NativeSymbolizer s = NativeSymbolizer.inMemory(t);
    assertThat(s.lookup(0x101).line()).isEqualTo(3);
    assertThat(s.lookup(0x105).line()).as("line 0 is no line").isNull();
    assertThat(s.lookup(0x105).function()).isEqualTo("f");
  }

  @Test
  void tooManyRangesInOneFunction() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (SymbfileWriter w = new SymbfileWriter(b)) {
      w.message(2, RangeV1.newBuilder().setSetElfVA(0x100).setLength(0x10).setFuncStr("f").build());
      byte[] inline =
          RangeV1.newBuilder().setLength(1).setDepth(1).setFuncStr("g").build().toByteArray();
      for (int i = 0; i <= SymbfileConverter.MAX_RANGES_PER_FUNCTION; i++) {
        w.message(2, inline);
      }
    }
    refused(b.toByteArray())
        .hasMessageContaining(
            "more than " + SymbfileConverter.MAX_RANGES_PER_FUNCTION + " inline ranges");
  }
}
