package io.symbolicate.api;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.js.JsApiHandler;
import io.symbolicate.api.jvm.JvmApiHandler;
import io.symbolicate.api.nativecode.MozillaV4Handler;
import io.symbolicate.api.nativecode.MozillaV5Handler;
import io.symbolicate.api.stacktraces.SymbolicateHandler;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.symbols.testing.Fuzzing;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;

/**
 * Every request shape of the symbolication endpoints (docs/fuzzing.md): a body as the server
 * reads it ({@link ShapeHandler#readJson}), then each shape's request reader and its events
 * (Mozilla v5 and v4, Symbolicator's native, JS and JVM). Each body goes to all five: a body of
 * one shape is a hostile body of the others.
 */
class ApiRequestFuzzTests {
  private static final int MAX_ITEMS = 1000;
  private static final Map<String, ApiShape<?>> SHAPES =
      Map.of(
          "v5",
          new MozillaV5Handler(DetachedSymbolication.withMaxFrames(MAX_ITEMS)),
          "v4",
          new MozillaV4Handler(DetachedSymbolication.withMaxFrames(MAX_ITEMS)),
          "js",
          new JsApiHandler(DetachedSymbolication.withMaxFrames(MAX_ITEMS), 100),
          "jvm",
          new JvmApiHandler(DetachedSymbolication.withMaxFrames(MAX_ITEMS), 100),
          "symbolicate",
          new SymbolicateHandler(DetachedSymbolication.withMaxFrames(MAX_ITEMS)));

  static {
    // the first request of each shape loads (and when fuzzing, instruments) the readers' and the
    // events' classes: seconds on a busy machine, which the first input would pay against 10 s
    String[] bodies = {
      "{\"jobs\": [{\"stacks\": [[[0, 1]]], \"memoryMap\": [[\"a.pdb\", \"0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0\"]]}]}",
      "{\"stacks\": [[[0, 1]]], \"memoryMap\": [[\"a.pdb\", \"0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0\"]], \"version\": 4}",
      "{\"stacktraces\": [{\"frames\": [{\"abs_path\": \"http://example.com/a.min.js\", \"lineno\": 1, \"colno\": 2}]}]}",
      "{\"stacktraces\": [{\"frames\": [{\"function\": \"a\", \"module\": \"b.c\", \"lineno\": 1}]}], "
          + "\"modules\": [{\"type\": \"proguard\", \"uuid\": \"5b46fdc0-0000-4000-8000-000000000001\"}]}",
      "{\"stacktraces\": [{\"registers\": {\"rip\": \"0x10\"}, \"frames\": [{\"instruction_addr\": \"0x10\"},"
          + " {\"instruction_addr\": 10, \"function_id\": 6, \"addr_mode\": \"rel:1\"}]}],"
          + " \"modules\": [{\"type\": \"elf\", \"debug_id\": \"20ad60b0-b4c6-8177-5527-08aa192e7739\","
          + " \"image_addr\": \"0x0\", \"image_size\": 4096},"
          + " {\"type\": \"pe_dotnet\", \"debug_file\": \"a.pdb\", \"debug_id\": \"0c1033f78632492e91c6c314b72e1920e60b819d\"}]}"
    };
    for (String b : bodies) {
      for (ApiShape<?> shape : SHAPES.values()) {
        try {
          readAndCount(shape, b.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
          // refused by the other shapes: the classes are loaded all the same
        }
      }
    }
  }

  /**
   * A request, or {@link ApiException} with 400 or 413 (what the endpoint answers; anything else
   * would be a 500). The events of a request fit its limits, as the endpoint counts them.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  @DictionaryEntries({
    "\"jobs\"",
    "\"stacks\"",
    "\"memoryMap\"",
    "\"version\"",
    "\"debug\"",
    "\"stacktraces\"",
    "\"frames\"",
    "\"modules\"",
    "\"abs_path\"",
    "\"lineno\"",
    "\"colno\"",
    "\"release\"",
    "\"dist\"",
    "\"exceptions\"",
    "\"classes\"",
    "\"release_package\"",
    "\"uuid\"",
    "\"type\"",
    "\"proguard\"",
    "\"sourcemap\"",
    "\"debug_id\"",
    "\"code_file\"",
    "\"options\"",
    "\"apply_source_context\"",
    "\"function\"",
    "\"module\"",
    "\"symbfile\"",
    "\"index\"",
    "\"instruction_addr\"",
    "\"addr_mode\"",
    "\"rel:0\"",
    "\"function_id\"",
    "\"registers\"",
    "\"image_addr\"",
    "\"image_size\"",
    "\"pe_dotnet\"",
    "\"elf\""
  })
  void request(byte[] data) throws Exception {
    for (ApiShape<?> shape : SHAPES.values()) {
      expect(data, () -> readAndCount(shape, data), ApiException.class);
    }
  }

  private static <R> void readAndCount(ApiShape<R> shape, byte[] data) throws Exception {
    try {
      JsonNode json = ShapeHandler.readJson(data);
      R request = shape.parse(json, name -> null);
      List<CrashEvent> events = shape.events(request, "global");
      ApiFrames.Size size = ApiFrames.Size.ZERO;
      for (CrashEvent e : events) {
        size = size.plus(ApiFrames.size(e));
      }
      check(
          size.frames() >= 0 && size.stacks() >= 0 && size.modules() >= 0,
          "negative counts: " + size);
    } catch (ApiException e) {
      check(
          e.status() == 400 || e.status() == 413,
          "a request answered " + e.status() + ": " + e.getMessage());
      throw e;
    }
  }
}
