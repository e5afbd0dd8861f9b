package io.symbolicate.api.nativecode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.ApiShape;
import io.symbolicate.api.DetachedSymbolication;
import io.symbolicate.api.Json;
import io.symbolicate.api.RequestStats;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbolication.nativecode.NativeSymbolicator;
import io.symbolicate.symbolication.store.TablesLookup;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Mozilla's v5 and v4 shapes without a server: what they refuse as they parse, and (with the
 * stream's native step over in-memory tables) what they answer.
 */
class MozillaHandlersTest {
  static final int LIMIT = 1000;

  final MozillaV5Handler v5 = new MozillaV5Handler(DetachedSymbolication.withMaxFrames(LIMIT));
  final MozillaV4Handler v4 = new MozillaV4Handler(DetachedSymbolication.withMaxFrames(LIMIT));

  static JsonNode json(String s) throws IOException {
    return Json.MAPPER.readTree(s);
  }

  static String emptyStacks(int n) {
    return String.join(",", Collections.nCopies(n, "[]"));
  }

  @Test
  void emptyStacksAndModulesCountTowardTheFrameLimit() throws IOException {
    // no frame at all, yet each empty stack is a list in the request, the event and the answer
    JsonNode stacks = json("{\"memoryMap\": [], \"stacks\": [" + emptyStacks(LIMIT + 1) + "]}");
    assertThatThrownBy(() -> v5.parse(stacks))
        .isInstanceOf(ApiException.class)
        .hasMessage(
            "request has 0 frames, "
                + (LIMIT + 1)
                + " stacks and 0 modules; each may number at most "
                + LIMIT
                + " (http.max.frames)")
        .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(413));
    assertThatThrownBy(() -> v4.parse(stacks))
        .isInstanceOf(ApiException.class)
        .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(413));

    // summed over the jobs of a v5 request
    String job =
        "{\"memoryMap\": [[\"a.pdb\", \"AB\"]], \"stacks\": [[[0, 1], [0, 2]], "
            + emptyStacks(100)
            + "]}";
    JsonNode jobs = json("{\"jobs\": [" + String.join(",", Collections.nCopies(10, job)) + "]}");
    assertThatThrownBy(() -> v5.parse(jobs))
        .isInstanceOf(ApiException.class)
        .hasMessageStartingWith("request has 20 frames, 1010 stacks and 10 modules;");

    // unused memory-map entries too
    StringBuilder mm = new StringBuilder();
    for (int i = 0; i <= LIMIT; i++) {
      mm.append(i == 0 ? "" : ",").append("[\"m").append(i).append(".pdb\", \"AB\"]");
    }
    assertThatThrownBy(
            () -> v5.parse(json("{\"memoryMap\": [" + mm + "], \"stacks\": [[[0, 1]]]}")))
        .isInstanceOf(ApiException.class)
        .hasMessageStartingWith("request has 1 frames, 1 stacks and " + (LIMIT + 1) + " modules;");
    // exactly the limit of frames in one stack of one module: frames, stacks and modules apart
    StringBuilder full = new StringBuilder();
    for (int i = 0; i < LIMIT; i++) {
      full.append(i == 0 ? "" : ",").append("[0, ").append(i).append(']');
    }
    assertThat(
            v5.parse(json("{\"memoryMap\": [[\"a.pdb\", \"AB\"]], \"stacks\": [[" + full + "]]}"))
                .jobs()
                .get(0)
                .stacks()
                .get(0))
        .hasSize(LIMIT);
  }

  @Test
  void requestsWithinTheLimitAreParsed() throws IOException {
    // exactly the limit: 9 jobs of 111 (1 module, 10 stacks, 100 frames) and one of 1
    StringBuilder frames = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      frames.append(i == 0 ? "" : ",").append("[0, ").append(i).append(']');
    }
    String stack = "[" + frames + "]";
    String job =
        "{\"memoryMap\": [[\"a.pdb\", \"AB\"]], \"stacks\": ["
            + String.join(",", Collections.nCopies(10, stack))
            + "]}";
    String jobs =
        String.join(",", Collections.nCopies(9, job)) + ", {\"memoryMap\": [], \"stacks\": [[]]}";
    MozillaRequest r = v5.parse(json("{\"jobs\": [" + jobs + "]}"));
    assertThat(r.jobs()).hasSize(10);
    assertThat(r.jobs().get(0).stacks()).hasSize(10).allSatisfy(s -> assertThat(s).hasSize(10));

    MozillaRequest one =
        v4.parse(json("{\"memoryMap\": [[\"a.pdb\", \"AB\"]], \"stacks\": [[[0, 1]], []]}"));
    assertThat(one.jobs().get(0).stacks()).hasSize(2);
  }

  static final String XUL_ID = "44E4EC8C2F41492B9369D6B9A059577C2";
  static final ModuleRef XUL =
      new ModuleRef(
          DebugIdentifiers.GLOBAL_SCOPE,
          TableKind.NATIVE,
          DebugIdentifiers.nativeModule("xul.pdb", XUL_ID).key());

  static TablesLookup xulFound() throws IOException {
    String sym =
        "MODULE windows x86_64 " + XUL_ID + " xul.pdb\nPUBLIC 1000 0 XREMain::XRE_main()\n";
    return new TablesLookup()
        .found(
            XUL,
            NativeSymbols.convert(
                new ByteArrayInputStream(sym.getBytes(StandardCharsets.UTF_8)),
                NativeSymbols.Options.defaults()));
  }

  static TablesLookup xulMissing() {
    return new TablesLookup().negative(XUL, TableStatus.missing, "not in any source");
  }

  /** Parsed, symbolicated by the stream's native step over {@code lookup}, rendered. */
  static <R> JsonNode serve(ApiShape<R> shape, JsonNode body, TablesLookup lookup) {
    R req = shape.parse(body);
    List<SymbolicatedEvent> results = new ArrayList<>();
    NativeSymbolicator step = new NativeSymbolicator();
    for (CrashEvent e : shape.events(req, DebugIdentifiers.GLOBAL_SCOPE)) {
      results.add(step.symbolicate(e, lookup, 0L));
    }
    return shape.render(req, results, RequestStats.NONE, lookup);
  }

  /**
   * As Mozilla's service: a module a frame refers to is looked up whatever that frame's offset;
   * only the frame's own address is not (it was null, "not referenced").
   */
  @Test
  void aFrameWithOffsetMinusOneStillRefersToItsModule() throws IOException {
    JsonNode body =
        json(
            "{\"jobs\":[{\"memoryMap\":[[\"xul.pdb\",\""
                + XUL_ID
                + "\"]],\"stacks\":[[[0,-1]]]}]}");
    JsonNode missing = serve(v5, body, xulMissing());
    assertThat(missing.at("/results/0/found_modules"))
        .isEqualTo(json("{\"xul.pdb/" + XUL_ID + "\": false}"));
    assertThat(missing.at("/results/0/stacks/0/0"))
        .isEqualTo(json("{\"frame\": 0, \"module\": \"xul.pdb\", \"module_offset\": \"-0x1\"}"));
    JsonNode found = serve(v5, body, xulFound());
    assertThat(found.at("/results/0/found_modules"))
        .isEqualTo(json("{\"xul.pdb/" + XUL_ID + "\": true}"));
    assertThat(found.at("/results/0/stacks/0/0").has("function")).isFalse();

    // a second entry no frame refers to stays null
    JsonNode two =
        serve(
            v5,
            json(
                "{\"memoryMap\":[[\"xul.pdb\",\""
                    + XUL_ID
                    + "\"],[\"b.pdb\",\"AB\"]],"
                    + "\"stacks\":[[[0,-1],[-1,5]]]}"),
            xulMissing());
    assertThat(two.at("/results/0/found_modules"))
        .isEqualTo(json("{\"xul.pdb/" + XUL_ID + "\": false, \"b.pdb/AB\": null}"));
  }

  @Test
  void v4NonIntegerAndNegativeOffsetsStillReferToTheirModules() throws IOException {
    String body =
        "{\"memoryMap\":[[\"xul.pdb\",\""
            + XUL_ID
            + "\"],[\"b.pdb\",\"AB\"]],"
            + "\"stacks\":[[[0,\"abc\"],[1,-1]]],\"version\":4}";
    JsonNode found = serve(v4, json(body), xulFound());
    assertThat(found.get("knownModules")).isEqualTo(json("[true, false]"));
    assertThat(found.get("symbolicatedStacks")).isEqualTo(json("[[\"abc\", \"-0x1 (in b.pdb)\"]]"));
    assertThat(serve(v4, json(body), xulMissing()).get("knownModules"))
        .isEqualTo(json("[false, false]"));
  }

  /** As the README says: the parsed JSON keeps a number's exact value, not its text. */
  @Test
  void v4EchoesNonIntegerOffsetsAsDocumented() throws IOException {
    JsonNode out =
        serve(
            v4,
            json(
                "{\"memoryMap\":[[\"b.pdb\",\"AB\"]],"
                    + "\"stacks\":[[[0,1.00000],[0,1e400],[0,\" 12 \"],[0,-2.5]]]}"),
            xulMissing());
    assertThat(out.get("symbolicatedStacks"))
        .isEqualTo(json("[[\"1.00000\", \"1E+400\", \" 12 \", \"-2.5\"]]"));
  }

  @Test
  void v5TakesTheDebugHeaderAsMozillasServiceDoes() throws IOException {
    JsonNode body =
        json("{\"memoryMap\":[[\"xul.pdb\",\"" + XUL_ID + "\"]],\"stacks\":[[[0,4096]]]}");
    assertThat(v5.parse(body, name -> name.equals("Debug") ? "true" : null).debug()).isTrue();
    // Mozilla's service tests the header's text: any value but empty, "0" too
    assertThat(v5.parse(body, name -> name.equals("Debug") ? "0" : null).debug()).isTrue();
    assertThat(v5.parse(body, name -> name.equals("Debug") ? "" : null).debug()).isFalse();
    assertThat(v5.parse(body, name -> null).debug()).isFalse();
    assertThat(v5.parse(body).debug()).isFalse();
    // the body's key still counts
    JsonNode keyed =
        json(
            "{\"debug\": true, \"memoryMap\":[[\"xul.pdb\",\""
                + XUL_ID
                + "\"]],\"stacks\":[[[0,4096]]]}");
    assertThat(v5.parse(keyed, name -> null).debug()).isTrue();

    MozillaRequest req = v5.parse(body, name -> name.equals("Debug") ? "1" : null);
    NativeSymbolicator step = new NativeSymbolicator();
    TablesLookup lookup = xulFound();
    List<SymbolicatedEvent> results = new ArrayList<>();
    for (CrashEvent e : v5.events(req, DebugIdentifiers.GLOBAL_SCOPE)) {
      results.add(step.symbolicate(e, lookup, 0L));
    }
    JsonNode out = v5.render(req, results, new RequestStats(1, 1, 0, 0, 0, 1, 1, 3), lookup);
    assertThat(out.at("/debug/cache_lookups/count").asInt()).isEqualTo(1);
    assertThat(out.at("/results/0/stacks/0/0/function").asText()).isEqualTo("XREMain::XRE_main()");
  }
}
