package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.symbfile.SymbfileWriter;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class NativeCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Run(int code, String out, String err) {
    List<String> lines() {
      return out.lines().toList();
    }
  }

  private static Run run(String... args) {
    CommandLine cl = SymbolicatorCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  private static Path fixture(String rel) {
    return SharedFixtures.fixtures("native").resolve(rel);
  }

  @Test
  void lookupPrintsOneJsonObjectPerAddressWithInlines() throws Exception {
    Run r =
        run(
            "native",
            "lookup",
            "--sym",
            fixture("google-breakpad/linux_inline/linux_inline.new.sym").toString(),
            "161b6",
            "0x10");
    assertThat(r.code()).isZero();
    assertThat(r.lines()).hasSize(2);
    JsonNode a = JSON.readTree(r.lines().get(0));
    assertThat(a.get("found").asBoolean()).isTrue();
    assertThat(a.get("function").asText()).isEqualTo("main");
    assertThat(a.get("function_base").asText()).isEqualTo("0x15b30");
    assertThat(a.get("file").asText()).isEqualTo("a.cpp");
    assertThat(a.get("line").asInt()).isEqualTo(42);
    assertThat(a.get("line_base").asText()).isEqualTo("0x161b6");
    assertThat(a.get("inlines")).hasSize(3);
    assertThat(a.get("inlines").get(0).get("function").asText()).isEqualTo("func()");
    assertThat(a.get("inlines").get(0).get("function_base").asText()).isEqualTo("0x15b83");
    JsonNode b = JSON.readTree(r.lines().get(1));
    assertThat(b.get("found").asBoolean()).isFalse();
  }

  @Test
  void lookupReadsStdinAndAppliesTheArchitectureAdjustment() throws Exception {
    InputStream saved = System.in;
    try {
      System.setIn(
          new ByteArrayInputStream("0x5b23c\n\n0x2ef6c\n".getBytes(StandardCharsets.UTF_8)));
      Run r =
          run(
              "native",
              "lookup",
              "--arch",
              "arm64",
              "--sym",
              fixture("google-breakpad/microdump-arm64/breakpad_unittests.sym").toString());
      assertThat(r.code()).isZero();
      assertThat(r.lines()).hasSize(2);
      JsonNode a = JSON.readTree(r.lines().get(0));
      // frame 1 of the peer's stack walk: pc - base = 0x5b23c, looked up at pc - 4
      assertThat(a.get("lookup_address").asText()).isEqualTo("0x5b238");
      assertThat(a.get("function").asText())
          .isEqualTo("testing::internal::HandleExceptionsInMethodIfSupported<testing::Test, void>");
      assertThat(a.get("line").asInt()).isEqualTo(2418);
    } finally {
      System.setIn(saved);
    }
  }

  /**
   * {@code lookup --sym crash.pdb} answers as {@code lookup --sym crash.sym} (the .sym Breakpad's
   * dump_syms.exe wrote of it) at functions whose names carry no argument list (ours do not yet).
   */
  @Test
  void lookupReadsAPdbAsBreakpadsSymOfIt() throws Exception {
    Path win = SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");
    String[] addrs = {"1379", "13b5", "28a3", "1362"};
    String[] pdbArgs = new String[4 + addrs.length];
    String[] symArgs = new String[4 + addrs.length];
    pdbArgs[0] = symArgs[0] = "native";
    pdbArgs[1] = symArgs[1] = "lookup";
    pdbArgs[2] = symArgs[2] = "--sym";
    pdbArgs[3] = win.resolve("crash.pdb").toString();
    symArgs[3] = win.resolve("crash.sym").toString();
    System.arraycopy(addrs, 0, pdbArgs, 4, addrs.length);
    System.arraycopy(addrs, 0, symArgs, 4, addrs.length);
    Run ours = run(pdbArgs);
    Run peer = run(symArgs);
    assertThat(ours.code()).as(ours.err()).isZero();
    String[] o = ours.out().split("\n");
    String[] p = peer.out().split("\n");
    assertThat(o).hasSize(addrs.length);
    for (int i = 0; i < addrs.length; i++) {
      JsonNode a = JSON.readTree(o[i]);
      JsonNode b = JSON.readTree(p[i]);
      assertThat(a.get("function")).as(addrs[i]).isEqualTo(b.get("function"));
      assertThat(a.get("line")).as(addrs[i]).isEqualTo(b.get("line"));
      assertThat(a.get("function_base")).as(addrs[i]).isEqualTo(b.get("function_base"));
    }
  }

  @Test
  void convertWritesATableThatLookupReads(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("t.nsym");
    Run c =
        run(
            "native",
            "convert",
            fixture("mozilla-eliot/extracted/testproj_with_inlines.sym").toString(),
            out.toString());
    assertThat(c.code()).isZero();
    JsonNode stats = JSON.readTree(c.out());
    assertThat(stats.get("module").asText()).isEqualTo("testproj");
    assertThat(stats.get("functions").asInt()).isEqualTo(1);
    // 7 line records, but "7a82 5" overlaps "7a7a f" and Breakpad keeps the first
    assertThat(stats.get("lines").asInt()).isEqualTo(6);
    assertThat(stats.get("corrupt").asBoolean()).isFalse();
    assertThat(stats.get("pages").asInt()).isEqualTo(1);
    // file = magic + page record (type, key, length) + header record (type, length)
    assertThat(Files.size(out)).isEqualTo(stats.get("table_bytes").asLong() + 8 + 13 + 5);
    Run l = run("native", "lookup", "--sym", out.toString(), "7a7a");
    JsonNode f = JSON.readTree(l.out());
    assertThat(f.get("function").asText()).isEqualTo("testproj::main");
    assertThat(f.get("function_offset").asText()).isEqualTo("0x3a");
    assertThat(f.get("inlines").get(0).get("function").asText())
        .isEqualTo("testproj::helper::inner");
  }

  @Test
  void badInputsAreOneLineErrorsWithExitCode2(@TempDir Path dir) throws Exception {
    Path html = dir.resolve("page.sym");
    Files.writeString(html, "<html><body>Not Found</body></html>\n");
    Run r = run("native", "lookup", "--sym", html.toString(), "10");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("not a Breakpad symbol file").doesNotContain("\tat ");
    assertThat(r.err().strip().lines()).hasSize(1);

    Run missing =
        run("native", "convert", dir.resolve("nope.sym").toString(), dir.resolve("o").toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("no such file");

    Run arch =
        run(
            "native",
            "lookup",
            "--arch",
            "mips",
            "--sym",
            fixture("google-breakpad/module1.out").toString(),
            "1000");
    assertThat(arch.code()).isEqualTo(2);
    assertThat(arch.err()).contains("unknown architecture");

    Run addr =
        run("native", "lookup", "--sym", fixture("google-breakpad/module1.out").toString(), "xyz");
    assertThat(addr.code()).isZero();
    assertThat(JSON.readTree(addr.out()).get("error").asText()).isEqualTo("not a hex address");

    Path empty = dir.resolve("empty.sym");
    Files.write(empty, new byte[0]);
    Run e = run("native", "convert", empty.toString(), dir.resolve("e.out").toString());
    assertThat(e.code()).isEqualTo(2);
    assertThat(e.err()).contains("empty input");
    assertThat(dir.resolve("e.out")).doesNotExist();
  }

  private static Path symbfile() {
    return SharedFixtures.fixtures("symbfile")
        .resolve("otel-ebpf-profiler/rust-crates/symblib/testdata/inline-no-tco.ranges.symbfile");
  }

  private static JsonNode peerReturnPads() throws Exception {
    return JSON.readTree(
            SharedFixtures.fixtures("symbfile")
                .resolve("derived/expected_from_peer_tests.json")
                .toFile())
        .get("ranges_to_retpads_inline_no_tco");
  }

  /** {@code entries} outermost first, as the peer lists them; our inlines are innermost first. */
  private static void assertChain(JsonNode got, JsonNode entries, String file) {
    int n = entries.size();
    assertThat(got.get("found").asBoolean()).isTrue();
    assertThat(got.get("function").asText()).isEqualTo(entries.get(0).get("func").asText());
    assertThat(got.get("line").asInt()).isEqualTo(entries.get(0).get("line").asInt());
    assertThat(got.get("file").asText()).isEqualTo(file);
    assertThat(got.get("inlines")).hasSize(n - 1);
    for (int d = 1; d < n; d++) {
      JsonNode in = got.get("inlines").get(n - 1 - d);
      assertThat(in.get("function").asText()).isEqualTo(entries.get(d).get("func").asText());
      assertThat(in.get("line").asInt()).isEqualTo(entries.get(d).get("line").asInt());
      assertThat(in.get("file").asText()).isEqualTo(file);
    }
  }

  /**
   * The peer's ranges symbfile (told by its magic, plain and gzip): each address of the peer's
   * return-pad test answers with the inline trace the peer derives from it.
   */
  @Test
  void lookupReadsASymbfileByItsMagic(@TempDir Path dir) throws Exception {
    JsonNode pads = peerReturnPads();
    String file = pads.get("file").asText();
    Path gz = dir.resolve("inline.sym");
    try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(Files.readAllBytes(symbfile()));
    }
    for (Path sym : List.of(symbfile(), gz)) {
      List<String> args = new ArrayList<>(List.of("native", "lookup", "--sym", sym.toString()));
      for (JsonNode rec : pads.get("records")) {
        args.add(rec.get("elf_va").asText());
      }
      args.add("0x664");
      Run r = run(args.toArray(String[]::new));
      assertThat(r.code()).as(r.err()).isZero();
      assertThat(r.lines()).hasSize(pads.get("records").size() + 1);
      for (int i = 0; i < pads.get("records").size(); i++) {
        assertChain(
            JSON.readTree(r.lines().get(i)), pads.get("records").get(i).get("entries"), file);
      }
      assertThat(JSON.readTree(r.lines().get(pads.get("records").size())).get("found").asBoolean())
          .isFalse();
    }
    JsonNode chain =
        JSON.readTree(run("native", "lookup", "--sym", symbfile().toString(), "650").out());
    assertThat(chain.get("function").asText()).isEqualTo("main");
    assertThat(chain.get("function_base").asText()).isEqualTo("0x640");
    assertThat(chain.get("inlines"))
        .extracting(n -> n.get("function").asText())
        .containsExactly("d_inline", "c_inline", "b_inline", "a_inline");
  }

  /** With --arch, a return address answers from its pad where the returnpads file has one. */
  @Test
  void lookupAnswersCallerFramesFromReturnPads(@TempDir Path dir) throws Exception {
    Path pads = dir.resolve("returnpads.symbfile");
    try (SymbfileWriter w = new SymbfileWriter(Files.newOutputStream(pads))) {
      w.stringTable(List.of("d", "pad.c"));
      w.returnPad(0x7b3, new String[] {"d"}, new String[] {"pad.c"}, new int[] {1007});
    }
    Run r =
        run(
            "native",
            "lookup",
            "--arch",
            "arm64",
            "--sym",
            symbfile().toString(),
            "--returnpads",
            pads.toString(),
            "0x7b4",
            "0x7a8");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode padded = JSON.readTree(r.lines().get(0));
    assertThat(padded.get("return_pad").asBoolean()).isTrue();
    assertThat(padded.get("lookup_address").asText()).isEqualTo("0x7b3");
    assertThat(padded.get("function").asText()).isEqualTo("d");
    assertThat(padded.get("file").asText()).isEqualTo("pad.c");
    assertThat(padded.get("line").asInt()).isEqualTo(1007);
    JsonNode plain = JSON.readTree(r.lines().get(1));
    assertThat(plain.get("return_pad").asBoolean()).isFalse();
    assertThat(plain.get("lookup_address").asText()).isEqualTo("0x7a4");
    assertThat(plain.get("line").asInt()).isEqualTo(7);
    // without the pads file the ranges answer at the adjusted address
    JsonNode ranges =
        JSON.readTree(
            run("native", "lookup", "--arch", "arm64", "--sym", symbfile().toString(), "0x7b4")
                .out());
    assertThat(ranges.get("return_pad").asBoolean()).isFalse();
    assertThat(ranges.get("lookup_address").asText()).isEqualTo("0x7b0");
    assertThat(ranges.get("function").asText()).isEqualTo("d");
  }

  @Test
  void aCorruptSymbfileIsAOneLineError(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream bad = new ByteArrayOutputStream();
    bad.write(Files.readAllBytes(symbfile()));
    bad.write(new byte[] {(byte) 0x80, (byte) 0x80}); // a truncated length varint
    Path file = dir.resolve("bad.symbfile");
    Files.write(file, bad.toByteArray());
    Run r = run("native", "lookup", "--sym", file.toString(), "650");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("not a valid symbfile").doesNotContain("\tat ");
    assertThat(r.err().strip().lines()).hasSize(1);

    Run notPads =
        run(
            "native",
            "lookup",
            "--sym",
            fixture("google-breakpad/module1.out").toString(),
            "--returnpads",
            symbfile().toString(),
            "10");
    assertThat(notPads.code()).isEqualTo(2);
    assertThat(notPads.err()).contains("--returnpads needs a symbfile");
  }
}
