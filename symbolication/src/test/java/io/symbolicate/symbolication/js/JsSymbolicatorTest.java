package io.symbolicate.symbolication.js;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.connectors.loader.js.JsTableConverter;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.JsFrame;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.symbolication.store.TablesLookup;
import io.symbolicate.symbols.js.JsReleaseModule;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which modules the JS step asks for, and the statuses it reports without a store. */
class JsSymbolicatorTest {
  private static final String DEBUG_ID = "c941a2f6-1b7e-4d2a-9c0f-3a5b8e7d6f10";
  private static final String APP = "https://app.example.com/static/app.min.js";
  private final JsSymbolicator step = new JsSymbolicator();

  private static CrashEvent event(String release, String... urls) {
    CrashEvent e = SampleEvents.jsEvent("e");
    e.setRelease(release);
    List<JsFrame> frames = new ArrayList<>();
    for (String u : urls) {
      frames.add(JsFrame.newBuilder().setAbsPath(u).setLineno(1).setColno(10).build());
    }
    e.getJavascript().getExceptions().get(0).setFrames(frames);
    return e;
  }

  @Test
  void debugIdFirstThenReleaseAndUrlPerFrame() {
    CrashEvent e =
        event("shop@1.0", APP, "https://app.example.com/static/vendor.js", APP, "<anonymous>");
    assertThat(step.modulesNeeded(e))
        .containsExactly(
            new ModuleRef("global", TableKind.JS, DEBUG_ID),
            new ModuleRef(
                "global",
                TableKind.JS,
                JsReleaseModule.ofFrame(
                        "shop@1.0", null, "https://app.example.com/static/vendor.js")
                    .key()));

    SymbolicatedEvent out = step.symbolicate(e, 0L);
    assertThat(out.getModules()).extracting(m -> m.getIndex()).containsExactly(0, -1);
    assertThat(out.getModules().get(1).getKey())
        .isEqualTo("release/shop%401.0/_/" + "https%3A%2F%2Fapp.example.com%2Fstatic%2Fvendor.js");
    List<SymbolicatedFrame> f = out.getStacks().get(0).getFrames();
    // no store: both modules unknown, so the frames say why, and the URL-less frame has no module
    assertThat(f)
        .extracting(SymbolicatedFrame::getStatus)
        .containsExactly(
            FrameStatus.fetch_failed,
            FrameStatus.fetch_failed,
            FrameStatus.fetch_failed,
            FrameStatus.unknown_module);
  }

  @Test
  void withoutAReleaseOnlyDebugIdsAreLookedUp() {
    CrashEvent e = event(null, APP, "https://app.example.com/static/vendor.js");
    assertThat(step.modulesNeeded(e))
        .containsExactly(new ModuleRef("global", TableKind.JS, DEBUG_ID));
    assertThat(step.symbolicate(e, 0L).getStacks().get(0).getFrames().get(1).getStatus())
        .isEqualTo(FrameStatus.unknown_module);
  }

  @Test
  void hostileUrlsAndReleasesAreNeverRequested() {
    CrashEvent e =
        event(
            "shop@1.0", "https://x.example/a/../../../etc/passwd", "https://x.example/a\u0000.js");
    assertThat(step.modulesNeeded(e)).isEmpty();
    SymbolicatedEvent out = step.symbolicate(e, 0L);
    assertThat(out.getModules())
        .filteredOn(m -> m.getIndex() == -1)
        .extracting(m -> m.getStatus())
        .containsExactly(ModuleStatus.malformed_request, ModuleStatus.malformed_request);
    assertThat(out.getModules())
        .filteredOn(m -> m.getIndex() == -1)
        .allMatch(m -> m.getKey() == null);
    assertThat(out.getStacks().get(0).getFrames())
        .extracting(SymbolicatedFrame::getStatus)
        .containsOnly(FrameStatus.invalid_frame);

    CrashEvent badRelease = event("shop\n1.0", "https://x.example/a.js");
    assertThat(step.modulesNeeded(badRelease)).isEmpty();
    assertThat(step.symbolicate(badRelease, 0L).getStacks().get(0).getFrames().get(0).getMessage())
        .contains("release contains a control character");
  }

  /**
   * A query string is not part of a release module: cache-busting queries that differ per page
   * load made each frame URL a module of its own, each loading the same artifact again.
   */
  @Test
  void cacheBustingQueriesShareOneReleaseModule() {
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      urls.add("https://app.example.com/static/vendor.js?_=17000000000" + i);
    }
    CrashEvent e = event("shop@1.0", urls.toArray(new String[0]));
    assertThat(step.modulesNeeded(e))
        .containsExactly(
            new ModuleRef(
                "global",
                TableKind.JS,
                JsReleaseModule.ofFrame(
                        "shop@1.0", null, "https://app.example.com/static/vendor.js")
                    .key()));
    assertThat(JsReleaseModule.ofFrame("shop@1.0", null, urls.get(0)).url())
        .isEqualTo("https://app.example.com/static/vendor.js");
  }

  /** Chrome's "async " frames belong to the module whose code_file is the URL after it. */
  @Test
  void asyncFramesUseTheirModulesDebugId() {
    CrashEvent e = event("shop@1.0", "async " + APP);
    assertThat(step.modulesNeeded(e))
        .containsExactly(new ModuleRef("global", TableKind.JS, DEBUG_ID));
  }

  /**
   * Source context counts against a budget per event: 20,000 frames (within
   * max.frames.per.event) with eleven lines of 150 chars each made a 35 MB output from a 1 MB
   * event, dead-lettered as too large after being built.
   */
  @Test
  void sourceContextIsBoundedPerEvent() throws Exception {
    StringBuilder content = new StringBuilder();
    for (int l = 0; l < 20; l++) {
      content.append("x".repeat(150)).append("\\n");
    }
    String map =
        "{\"version\":3,\"sources\":[\"a.js\"],\"sourcesContent\":[\""
            + content
            + "\"],\"names\":[],\"mappings\":\"AAKA\"}";
    var table =
        new JsTableConverter()
            .convert(new ByteArrayInputStream(map.getBytes(StandardCharsets.UTF_8)), 1L << 30);
    var lookup = new TablesLookup().found(new ModuleRef("global", TableKind.JS, DEBUG_ID), table);
    int n = 2000;
    String[] urls = new String[n];
    Arrays.fill(urls, APP);
    List<SymbolicatedFrame> frames =
        step.symbolicate(event(null, urls), lookup, 0L).getStacks().get(0).getFrames();
    long chars = 0;
    int withContext = 0;
    for (SymbolicatedFrame f : frames) {
      assertThat(f.getStatus()).isEqualTo(FrameStatus.symbolicated);
      assertThat(f.getLine()).isEqualTo(6);
      if (f.getContextLine() != null) {
        withContext++;
        chars += f.getContextLine().length();
        chars += f.getPreContext().stream().mapToInt(CharSequence::length).sum();
        chars += f.getPostContext().stream().mapToInt(CharSequence::length).sum();
      } else {
        assertThat(f.getMessage()).contains("no source context");
      }
    }
    assertThat(withContext).as("frames with context").isGreaterThan(0).isLessThan(n);
    assertThat(chars).isLessThan(JsSymbolicator.MAX_CONTEXT_CHARS_PER_EVENT + 11 * 150);
    assertThat(frames.get(0).getContextLine()).hasSize(150);
    assertThat(frames.get(n - 1).getContextLine()).isNull();
  }

  /**
   * Symbolicator reads a frame's column as {@code colno.saturating_sub(1)}: colno 0, like no
   * colno, is the line's first column; only a line below 1 is an invalid location.
   */
  @Test
  void colnoZeroIsTheFirstColumnAsInSymbolicator() throws Exception {
    // two segments on line 1: column 0 maps to a.js line 1, column 10 to a.js line 4
    String map = "{\"version\":3,\"sources\":[\"a.js\"],\"names\":[],\"mappings\":\"AAAA,UAGA\"}";
    var table =
        new JsTableConverter()
            .convert(new ByteArrayInputStream(map.getBytes(StandardCharsets.UTF_8)), 1L << 30);
    var lookup = new TablesLookup().found(new ModuleRef("global", TableKind.JS, DEBUG_ID), table);
    CrashEvent e = event(null, APP, APP, APP, APP, APP);
    List<JsFrame> in = e.getJavascript().getExceptions().get(0).getFrames();
    in.get(0).setColno(0);
    in.get(1).setColno(null);
    in.get(2).setColno(1);
    in.get(3).setColno(11);
    in.get(4).setLineno(0);
    List<SymbolicatedFrame> out = step.symbolicate(e, lookup, 0L).getStacks().get(0).getFrames();
    assertThat(out)
        .extracting(SymbolicatedFrame::getStatus)
        .containsExactly(
            FrameStatus.symbolicated,
            FrameStatus.symbolicated,
            FrameStatus.symbolicated,
            FrameStatus.symbolicated,
            FrameStatus.invalid_frame);
    assertThat(out.subList(0, 4))
        .extracting(SymbolicatedFrame::getLine)
        .containsExactly(1, 1, 1, 4);
    assertThat(out.get(4).getMessage()).contains("lineno must be >= 1");
  }
}
