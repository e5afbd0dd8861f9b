package io.symbolicate.symbols.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Runs every case of ../shared/fixtures/native/cases.json; a failing case fails the build. */
class NativeCasesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

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
      assertFrame(where, frame, expect);
      if (l.has("expect_frame_count")) {
        assertThat(1 + frame.inlines().size()).as(where).isEqualTo(l.get("expect_frame_count").asInt());
      }
      if (l.has("api_v5_frame")) {
        Map<String, Object> actual = MozillaApiFrames.v5Frame(frame, 0, table.nativeHeader().displayName());
        Object expected = JSON.convertValue(l.get("api_v5_frame"), Map.class);
        assertThat((JsonNode) JSON.valueToTree(actual)).as(where + " v5")
            .isEqualTo((JsonNode) JSON.valueToTree(expected));
      }
      if (l.has("api_v4_string")) {
        assertThat(MozillaApiFrames.v4String(frame, table.nativeHeader().displayName()))
            .as(where + " v4").isEqualTo(l.get("api_v4_string").asText());
      }
      checked++;
    }
    assertThat(checked).isEqualTo(c.get("lookups").size());
  }

  private static void assertFrame(String where, NativeFrame f, JsonNode e) {
    Iterator<Map.Entry<String, JsonNode>> it = e.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> kv = it.next();
      JsonNode v = kv.getValue();
      String field = where + " ." + kv.getKey();
      switch (kv.getKey()) {
        case "function" -> assertThat(f.function()).as(field).isEqualTo(v.asText());
        case "file" -> assertThat(f.file()).as(field).isEqualTo(v.isNull() ? null : v.asText());
        case "line" -> assertThat(f.line()).as(field).isEqualTo(v.isNull() ? null : v.asInt());
        case "function_base" -> assertThat(Unsigned.hex(f.functionBase())).as(field).isEqualTo(v.asText());
        case "line_base" -> assertThat(f.lineBase() == null ? null : Unsigned.hex(f.lineBase()))
            .as(field).isEqualTo(v.isNull() ? null : v.asText());
        case "is_multiple" -> assertThat(f.multiple()).as(field).isEqualTo(v.asBoolean());
        case "function_offset" -> assertThat(Unsigned.hex(f.functionOffset())).as(field).isEqualTo(v.asText());
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
        case "function_base" -> assertThat(Unsigned.hex(f.functionBase())).as(field).isEqualTo(v.asText());
        case "line_base" -> assertThat(f.lineBase() == null ? null : Unsigned.hex(f.lineBase()))
            .as(field).isEqualTo(v.isNull() ? null : v.asText());
        default -> throw new AssertionError(field + ": unknown expectation field");
      }
    }
  }
}
