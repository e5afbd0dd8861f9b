package io.symbolicate.symbols.symbfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.nativecode.CallerAdjust;
import io.symbolicate.symbols.nativecode.InlineFrame;
import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The peer's cases (opentelemetry-ebpf-profiler, transcribed in fixtures/symbfile/derived): the
 * decoded records of its checked-in symbfile, the LEB128 framing cases, the FileID vectors, and
 * the inline traces its return-pad test derives from that symbfile, which our lookups must give.
 *
 * <p>Not checked: {@code dwarf_to_ranges_inline} (the peer's DWARF-to-ranges conversion of the
 * {@code inline} ELF; we read symbfiles, we do not write them from DWARF).
 */
class SymbfilePeerCasesTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static Path fixtures() {
    return SharedFixtures.fixtures("symbfile");
  }

  static Path rangesFile() {
    return fixtures()
        .resolve("otel-ebpf-profiler/rust-crates/symblib/testdata/inline-no-tco.ranges.symbfile");
  }

  static JsonNode expected() throws IOException {
    return JSON.readTree(fixtures().resolve("derived/expected_from_peer_tests.json").toFile());
  }

  static List<SymbfileRecord> readAll(InputStream in) throws IOException, SymbfileException {
    List<SymbfileRecord> out = new ArrayList<>();
    try (SymbfileReader r = new SymbfileReader(in)) {
      for (SymbfileRecord rec = r.next(); rec != null; rec = r.next()) {
        out.add(rec);
      }
    }
    return out;
  }

  @Test
  void decodedRangesAreThePeers() throws Exception {
    JsonNode decoded =
        JSON.readTree(
            fixtures().resolve("derived/inline-no-tco.ranges.symbfile.decoded.json").toFile());
    List<SymbfileRecord> records;
    long messages;
    try (SymbfileReader r = new SymbfileReader(Files.newInputStream(rangesFile()))) {
      records = new ArrayList<>();
      for (SymbfileRecord rec = r.next(); rec != null; rec = r.next()) {
        records.add(rec);
      }
      messages = r.messageCount();
      assertThat(r.bytesRead()).isEqualTo(Files.size(rangesFile()));
    }
    assertThat(messages).isEqualTo(decoded.get("messages").size());
    JsonNode want = decoded.get("records");
    assertThat(records).hasSize(want.size());
    for (int i = 0; i < want.size(); i++) {
      JsonNode w = want.get(i);
      SymbfileRange r = (SymbfileRange) records.get(i);
      String at = "record " + i;
      assertThat(r.elfVa()).as(at).isEqualTo(Long.decode(w.get("elf_va").asText()));
      assertThat(r.length()).as(at).isEqualTo(w.get("length").asLong());
      assertThat(r.function()).as(at).isEqualTo(text(w.get("func")));
      assertThat(r.file()).as(at).isEqualTo(text(w.get("file")));
      assertThat(r.callFile()).as(at).isEqualTo(text(w.get("call_file")));
      assertThat(r.callLine())
          .as(at)
          .isEqualTo(w.get("call_line").isNull() ? 0 : w.get("call_line").asInt());
      assertThat(r.depth()).as(at).isEqualTo(w.get("depth").asInt());
      JsonNode lt = w.get("line_table");
      assertThat(r.lineCount()).as(at).isEqualTo(lt.size());
      for (int k = 0; k < lt.size(); k++) {
        assertThat(r.lineOffsets()[k])
            .as(at + " line " + k)
            .isEqualTo(lt.get(k).get("offset").asLong());
        assertThat(r.lineNumbers()[k])
            .as(at + " line " + k)
            .isEqualTo(lt.get(k).get("line_number").asInt());
      }
    }
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() ? null : n.asText();
  }

  /** The peer's LEB128 cases, through the framing: each value as a message length. */
  @Test
  void leb128CasesOfThePeer() throws Exception {
    for (JsonNode c : expected().get("leb128_prefix").get("cases")) {
      byte[] bytes = HexFormat.of().parseHex(c.get("bytes").asText());
      JsonNode v = c.get("value");
      ByteArrayOutputStream f = new ByteArrayOutputStream();
      new SymbfileWriter(f).close();
      f.write(bytes);
      if (v.isTextual() && v.asText().startsWith("EOF")) {
        assertThat(readAll(new ByteArrayInputStream(f.toByteArray()))).isEmpty();
      } else if (v.isTextual() && v.asText().startsWith("error")) {
        assertThatThrownBy(() -> readAll(new ByteArrayInputStream(f.toByteArray())))
            .isInstanceOf(SymbfileException.class)
            .hasMessageContaining("truncated in the message length");
      } else {
        long value = Long.parseUnsignedLong(v.asText());
        f.write(99); // an unknown message type: skipped after its body
        if (Long.compareUnsigned(value, SymbfileReader.MAX_MESSAGE_BYTES) > 0) {
          assertThatThrownBy(() -> readAll(new ByteArrayInputStream(f.toByteArray())))
              .isInstanceOf(SymbfileException.class)
              .hasMessageContaining("claims " + Long.toUnsignedString(value) + " bytes");
        } else {
          f.write(new byte[(int) value]);
          try (SymbfileReader r = new SymbfileReader(new ByteArrayInputStream(f.toByteArray()))) {
            assertThat(r.next()).isNull();
            assertThat(r.skippedCount()).isEqualTo(1);
            assertThat(r.bytesRead()).isEqualTo(f.size());
          }
        }
      }
    }
  }

  @Test
  void fileIdVectorsOfThePeer() throws Exception {
    JsonNode vectors = expected().get("file_id").get("vectors");
    Path inline = fixtures().resolve("otel-ebpf-profiler/rust-crates/symblib/testdata/inline");
    FileId id = FileId.of(inline);
    assertThat(id.toHex()).isEqualTo(vectors.get(0).get("hex").asText());
    assertThat(id.toBase64()).isEqualTo(vectors.get(0).get("base64url").asText());
    assertThat(FileId.of(Files.readAllBytes(inline))).isEqualTo(id);
    assertThat(FileId.parse(id.toBase64())).isEqualTo(id);
    assertThat(FileId.parse(id.toHex())).isEqualTo(id);

    FileId zeros = FileId.of(new byte[123]);
    assertThat(zeros.toHex()).isEqualTo(vectors.get(1).get("hex").asText());
    assertThat(zeros.toBase64()).isEqualTo(vectors.get(1).get("base64url").asText());

    FileId elf = FileId.of(HexFormat.of().parseHex("7F454C460001020304"));
    assertThat(elf)
        .isEqualTo(
            new FileId(
                Long.parseUnsignedLong(hex(vectors.get(2).get("hi")), 16),
                Long.parseUnsignedLong(hex(vectors.get(2).get("lo")), 16)));

    FileId fixed =
        new FileId(
            Long.parseUnsignedLong(hex(vectors.get(3).get("hi")), 16),
            Long.parseUnsignedLong(hex(vectors.get(3).get("lo")), 16));
    assertThat(fixed.toBase64()).isEqualTo(vectors.get(3).get("base64url").asText());

    JsonNode dec = vectors.get(4);
    FileId want =
        new FileId(
            Long.parseUnsignedLong(hex(dec.get("hi")), 16),
            Long.parseUnsignedLong(hex(dec.get("lo")), 16));
    for (JsonNode s : dec.get("base64_decode_accepts")) {
      assertThat(FileId.parse(s.asText())).as(s.asText()).isEqualTo(want);
    }

    JsonNode kernel = vectors.get(5);
    assertThat(FileId.ofKernelBuildId(kernel.get("kernel_build_id").asText()).toHex())
        .isEqualTo(kernel.get("hex").asText());
    JsonNode swapped = vectors.get(6);
    assertThat(FileId.parse(swapped.get("swapped_of").asText()).swapped().toHex())
        .isEqualTo(swapped.get("hex").asText());
  }

  private static String hex(JsonNode n) {
    return n.asText().substring(2);
  }

  @Test
  void fileIdTextThatIsNotOne() {
    assertThatThrownBy(() -> FileId.parse("abc"))
        .isInstanceOf(SymbfileException.class)
        .hasMessageContaining("22 (base64) or 32 (hex)");
    assertThatThrownBy(() -> FileId.parse("zz34567812439" + "7f5876543218774849e"))
        .isInstanceOf(SymbfileException.class)
        .hasMessageContaining("not hex");
    assertThatThrownBy(() -> FileId.parse("EjRWeBJDl_WHZUMhh3SE!g"))
        .isInstanceOf(SymbfileException.class)
        .hasMessageContaining("not base64");
    assertThatThrownBy(() -> FileId.parse(null)).isInstanceOf(SymbfileException.class);
  }

  static NativeTable fixtureTable(InputStream... more) throws Exception {
    InputStream[] all = new InputStream[1 + more.length];
    all[0] = Files.newInputStream(rangesFile());
    System.arraycopy(more, 0, all, 1, more.length);
    return SymbfileConverter.convert(
        new SymbfileConverter.Module("inline-no-tco", "arm64", null), all);
  }

  /**
   * The peer derives these traces (return address - 1, outermost first) from the same ranges
   * file; a lookup of each address in our table must give the same chain, innermost first.
   */
  @Test
  void lookupsGiveThePeersInlineTraces() throws Exception {
    JsonNode retpads = expected().get("ranges_to_retpads_inline_no_tco");
    String file = retpads.get("file").asText();
    NativeSymbolizer s = NativeSymbolizer.inMemory(fixtureTable());
    for (JsonNode rec : retpads.get("records")) {
      long va = Long.decode(rec.get("elf_va").asText());
      JsonNode entries = rec.get("entries");
      NativeFrame f = s.lookup(va);
      assertThat(f).as(rec.toString()).isNotNull();
      assertFrame(f, entries, file, rec.toString());
    }
    // the chain the issue names: main -> a_inline -> b_inline -> c_inline -> d_inline
    NativeFrame f = s.lookup(0x650);
    assertThat(f.function()).isEqualTo("main");
    assertThat(f.functionBase()).isEqualTo(0x640);
    assertThat(f.inlines())
        .extracting(InlineFrame::function)
        .containsExactly("d_inline", "c_inline", "b_inline", "a_inline");
    assertThat(f.inlines()).extracting(InlineFrame::functionBase).containsOnly(0x64cL);
    // main's own lines around the inlinees
    assertThat(s.lookup(0x640).line()).isEqualTo(38);
    assertThat(s.lookup(0x648).line()).isEqualTo(39);
    assertThat(s.lookup(0x658).line()).isEqualTo(41);
    assertThat(s.lookup(0x658).inlines()).isEmpty();
    assertThat(s.lookup(0x664)).isNull();
  }

  /** {@code entries} outermost first, as the peer lists them. */
  static void assertFrame(NativeFrame f, JsonNode entries, String file, String at) {
    int n = entries.size();
    assertThat(f.function()).as(at).isEqualTo(entries.get(0).get("func").asText());
    assertThat(f.line()).as(at).isEqualTo(entries.get(0).get("line").asInt());
    assertThat(f.file()).as(at).isEqualTo(file);
    assertThat(f.inlines()).as(at).hasSize(n - 1);
    for (int d = 1; d < n; d++) {
      InlineFrame in = f.inlines().get(n - 1 - d);
      assertThat(in.function()).as(at).isEqualTo(entries.get(d).get("func").asText());
      assertThat(in.line()).as(at).isEqualTo(entries.get(d).get("line").asInt());
      assertThat(in.file()).as(at).isEqualTo(file);
    }
  }

  /**
   * The peer's return pads of this file, written as a returnpads symbfile beside the ranges:
   * a caller frame (return address = pad + 1) answers from the pad; where a pad disagrees with
   * the ranges (a line moved on purpose), the pad wins; without a pad the ranges answer.
   */
  @Test
  void returnPadsWinForCallerFrames() throws Exception {
    JsonNode retpads = expected().get("ranges_to_retpads_inline_no_tco");
    String file = retpads.get("file").asText();
    ByteArrayOutputStream pads = new ByteArrayOutputStream();
    try (SymbfileWriter w = new SymbfileWriter(pads)) {
      w.stringTable(
          List.of(
              file, "main", "a_inline", "b_inline", "c_inline", "d_inline", "a", "b", "c", "d"));
      for (JsonNode rec : retpads.get("records")) {
        JsonNode e = rec.get("entries");
        String[] fn = new String[e.size()];
        String[] files = new String[e.size()];
        int[] lines = new int[e.size()];
        for (int i = 0; i < e.size(); i++) {
          fn[i] = e.get(i).get("func").asText();
          files[i] = file;
          lines[i] =
              e.get(i).get("line").asInt()
                  + (rec.get("elf_va").asText().equals("0x7b3") ? 1000 : 0);
        }
        w.returnPad(Long.decode(rec.get("elf_va").asText()), fn, files, lines);
      }
    }
    NativeSymbolizer s =
        NativeSymbolizer.inMemory(fixtureTable(new ByteArrayInputStream(pads.toByteArray())));
    for (JsonNode rec : retpads.get("records")) {
      long va = Long.decode(rec.get("elf_va").asText());
      NativeFrame f = s.lookup(va + 1, CallerAdjust.ARM64);
      if (va == 0x7b3) {
        assertThat(f.function()).isEqualTo("d");
        assertThat(f.line()).as("the pad's line, not the ranges' 7").isEqualTo(1007);
        assertThat(s.lookup(va).line()).isEqualTo(7);
      } else {
        assertFrame(f, rec.get("entries"), file, rec.toString());
      }
      assertThat(f.address()).isEqualTo(va);
      assertThat(f.functionBase()).isEqualTo(s.lookup(va).functionBase());
    }
    NativeFrame chain = s.returnPad(0x658);
    assertThat(chain.inlines()).extracting(InlineFrame::functionBase).containsOnly(0x64cL);
    // no pad at 0x7a8 - 1: the ranges answer at the adjusted address (0x7a8 - 4)
    assertThat(s.returnPad(0x7a8)).isNull();
    assertThat(s.lookup(0x7a8, CallerAdjust.ARM64).line()).isEqualTo(7);
    assertThat(s.lookup(0x7a8, CallerAdjust.ARM64).address()).isEqualTo(0x7a4);
  }
}
