package io.symbolicate.symbols.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Runs every case of ../shared/fixtures/native/cases.json; a failing case fails the build. */
class NativeCasesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Peer-specific: symbolic normalises ".." in paths (its clean_path); Breakpad, which we follow,
   * returns the FILE record verbatim. For these cases we assert our raw path AND that it
   * normalises to the peer's value.
   */
  private static final Set<String> SYMBOLIC_CLEAN_PATH = Set.of("symbolic-macos-crash");

  @TestFactory
  Stream<DynamicTest> peerCases() throws Exception {
    Path dir = SharedFixtures.fixtures("native");
    JsonNode root = JSON.readTree(dir.resolve("cases.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : root.get("cases")) {
      tests.add(DynamicTest.dynamicTest(c.get("id").asText(), () -> runCase(dir, c)));
    }
    assertThat(tests).hasSizeGreaterThanOrEqualTo(13);
    return tests.stream();
  }

  private void runCase(Path dir, JsonNode c) throws Exception {
    NativeTable table = NativeSymbols.convert(dir.resolve(c.get("symfile").asText()));
    NativeSymbolizer sym = NativeSymbolizer.inMemory(table);
    JsonNode load = c.get("expect_load");
    if (load != null) {
      assertThat(load.get("loads").asBoolean()).isTrue();
      if (load.has("corrupt")) {
        assertThat(table.nativeHeader().corrupt()).isEqualTo(load.get("corrupt").asBoolean());
      }
    }
    int checked = 0;
    for (JsonNode l : c.get("lookups")) {
      long address = Long.parseUnsignedLong(l.get("address").asText().substring(2), 16);
      NativeFrame frame = sym.lookup(address);
      String where = c.get("id").asText() + " @ " + l.get("address").asText();
      JsonNode expect = l.get("expect");
      if (expect.isNull()) {
        assertThat(frame).as(where).isNull();
        checked++;
        continue;
      }
      assertThat(frame).as(where).isNotNull();
      assertFrame(where, frame, expect, SYMBOLIC_CLEAN_PATH.contains(c.get("id").asText()));
      if (l.has("expect_frame_count")) {
        assertThat(1 + frame.inlines().size())
            .as(where)
            .isEqualTo(l.get("expect_frame_count").asInt());
      }
      if (l.has("api_v5_frame")) {
        Map<String, Object> actual =
            MozillaApiFrames.v5Frame(frame, 0, table.nativeHeader().displayName());
        Object expected = JSON.convertValue(l.get("api_v5_frame"), Map.class);
        assertThat((JsonNode) JSON.valueToTree(actual))
            .as(where + " v5")
            .isEqualTo((JsonNode) JSON.valueToTree(expected));
      }
      if (l.has("api_v4_string")) {
        assertThat(MozillaApiFrames.v4String(frame, table.nativeHeader().displayName()))
            .as(where + " v4")
            .isEqualTo(l.get("api_v4_string").asText());
      }
      checked++;
    }
    assertThat(checked).isEqualTo(c.get("lookups").size());
    if (c.has("property")) {
      String name = c.get("property").get("name").asText();
      assertThat(name).isEqualTo("every_line_record_address");
      everyLineRecordAddress(dir.resolve(c.get("symfile").asText()), sym);
    }
    JsonNode out = c.get("expected_output");
    if (out != null && out.isTextual() && out.asText().endsWith(".snap")) {
      functionTreeSnapshot(dir.resolve(out.asText()), sym);
    }
  }

  /** symbolic's clean_path for the cases that need it: drops "." and folds "dir/..". */
  static String cleanPath(String p) {
    List<String> out = new ArrayList<>();
    for (String seg : p.split("/", -1)) {
      if (seg.equals(".")) {
        continue;
      }
      if (seg.equals("..")
          && !out.isEmpty()
          && !out.get(out.size() - 1).equals("..")
          && !out.get(out.size() - 1).isEmpty()) {
        out.remove(out.size() - 1);
        continue;
      }
      out.add(seg);
    }
    return String.join("/", out);
  }

  /**
   * symbolic's test_macos_all: every address of every line record of every FUNC returns exactly
   * one frame with the FUNC's name and the line record's (normalised) file and line. The .sym is
   * read here with a separate, naive text parser.
   */
  private static void everyLineRecordAddress(Path symfile, NativeSymbolizer sym) throws Exception {
    Map<String, String> files = new HashMap<>();
    String func = null;
    long addresses = 0;
    for (String line : Files.readAllLines(symfile)) {
      String[] t = line.split(" ", 5);
      if (t[0].equals("FILE")) {
        String[] ft = line.split(" ", 3);
        files.put(ft[1], ft[2]);
      } else if (t[0].equals("FUNC")) {
        func = t[1].equals("m") ? line.split(" ", 6)[5] : t[4];
      } else if (t[0].equals("PUBLIC") || t[0].equals("STACK")) {
        func = null;
      } else if (func != null && t[0].matches("[0-9a-f]+") && t.length == 4) {
        long a = Long.parseLong(t[0], 16);
        long n = Long.parseLong(t[1], 16);
        for (long x = a; x < a + n; x++) {
          NativeFrame f = sym.lookup(x);
          String where = "0x" + Long.toHexString(x);
          assertThat(f).as(where).isNotNull();
          assertThat(f.inlines()).as(where).isEmpty();
          assertThat(f.function()).as(where).isEqualTo(func);
          assertThat(f.file()).as(where).isEqualTo(files.get(t[3]));
          assertThat(f.line()).as(where).isEqualTo(Integer.parseInt(t[2]));
          addresses++;
        }
      }
    }
    assertThat(addresses).isGreaterThan(1000);
  }

  private static final Pattern SNAP_FUNC =
      Pattern.compile("^( *)> 0x([0-9a-f]+): (.*) \\(0x[0-9a-f]+\\)$");
  private static final Pattern SNAP_LINE =
      Pattern.compile("^( *)0x([0-9a-f]+): (.*):(\\d+) \\((.*)\\)$");

  /**
   * symbolic's function tree (first 10 FUNCs with nested inlinees and their line records): at
   * each listed address, the frame at that nesting depth (0 = the FUNC, 1 = outermost inlinee)
   * must have the listed function name, file and line (a parent's line at an inlinee's address
   * is the call site, as in Breakpad's frames). Paths compared after symbolic's normalisation.
   */
  private static void functionTreeSnapshot(Path snap, NativeSymbolizer sym) throws Exception {
    List<String> names = new ArrayList<>();
    int checked = 0;
    for (String line : Files.readAllLines(snap)) {
      Matcher fm = SNAP_FUNC.matcher(line);
      if (fm.matches()) {
        int depth = fm.group(1).length() / 2;
        while (names.size() > depth) {
          names.remove(names.size() - 1);
        }
        names.add(fm.group(3));
        continue;
      }
      Matcher lm = SNAP_LINE.matcher(line);
      if (!lm.matches()) {
        continue;
      }
      int depth = lm.group(1).length() / 2 - 1;
      long addr = Long.parseLong(lm.group(2), 16);
      String where = "0x" + lm.group(2) + " depth " + depth;
      NativeFrame f = sym.lookup(addr);
      assertThat(f).as(where).isNotNull();
      List<Object[]> frames = new ArrayList<>();
      frames.add(new Object[] {f.function(), f.file(), f.line()});
      for (int i = f.inlines().size() - 1; i >= 0; i--) {
        InlineFrame in = f.inlines().get(i);
        frames.add(new Object[] {in.function(), in.file(), in.line()});
      }
      assertThat(frames.size()).as(where + " frame count").isGreaterThan(depth);
      Object[] fr = frames.get(depth);
      assertThat(fr[0]).as(where + " function").isEqualTo(names.get(depth));
      assertThat(cleanPath((String) fr[1]))
          .as(where + " file")
          .isEqualTo(lm.group(5) + "/" + lm.group(3));
      assertThat(fr[2]).as(where + " line").isEqualTo(Integer.parseInt(lm.group(4)));
      checked++;
    }
    assertThat(checked).isGreaterThan(40);
  }

  private static void assertFrame(String where, NativeFrame f, JsonNode e, boolean cleanPath) {
    Iterator<Map.Entry<String, JsonNode>> it = e.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> kv = it.next();
      JsonNode v = kv.getValue();
      String field = where + " ." + kv.getKey();
      switch (kv.getKey()) {
        case "function" -> assertThat(f.function()).as(field).isEqualTo(v.asText());
        case "file" -> {
          if (cleanPath && !v.isNull()) {
            assertThat(f.file())
                .as(field + " (raw FILE text, not the peer's)")
                .isNotEqualTo(v.asText());
            assertThat(cleanPath(f.file())).as(field + " (normalised)").isEqualTo(v.asText());
          } else {
            assertThat(f.file()).as(field).isEqualTo(v.isNull() ? null : v.asText());
          }
        }
        case "line" -> assertThat(f.line()).as(field).isEqualTo(v.isNull() ? null : v.asInt());
        case "function_base" ->
            assertThat(Unsigned.hex(f.functionBase())).as(field).isEqualTo(v.asText());
        case "line_base" ->
            assertThat(f.lineBase() == null ? null : Unsigned.hex(f.lineBase()))
                .as(field)
                .isEqualTo(v.isNull() ? null : v.asText());
        case "is_multiple" -> assertThat(f.multiple()).as(field).isEqualTo(v.asBoolean());
        case "function_offset" ->
            assertThat(Unsigned.hex(f.functionOffset())).as(field).isEqualTo(v.asText());
        case "inlines" -> {
          assertThat(f.inlines()).as(field).hasSize(v.size());
          for (int i = 0; i < v.size(); i++) {
            assertInline(field + "[" + i + "]", f.inlines().get(i), v.get(i));
          }
        }
        default -> throw new AssertionError(field + ": unknown expectation field");
      }
    }
  }

  private static void assertInline(String where, InlineFrame f, JsonNode e) {
    Iterator<Map.Entry<String, JsonNode>> it = e.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> kv = it.next();
      JsonNode v = kv.getValue();
      String field = where + " ." + kv.getKey();
      switch (kv.getKey()) {
        case "function" -> assertThat(f.function()).as(field).isEqualTo(v.asText());
        case "file" -> assertThat(f.file()).as(field).isEqualTo(v.isNull() ? null : v.asText());
        case "line" -> assertThat(f.line()).as(field).isEqualTo(v.isNull() ? null : v.asInt());
        case "function_base" ->
            assertThat(Unsigned.hex(f.functionBase())).as(field).isEqualTo(v.asText());
        case "line_base" ->
            assertThat(f.lineBase() == null ? null : Unsigned.hex(f.lineBase()))
                .as(field)
                .isEqualTo(v.isNull() ? null : v.asText());
        default -> throw new AssertionError(field + ": unknown expectation field");
      }
    }
  }
}
