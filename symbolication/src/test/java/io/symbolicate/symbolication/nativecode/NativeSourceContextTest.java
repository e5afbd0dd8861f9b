package io.symbolicate.symbolication.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.store.SourceContextLookup;
import io.symbolicate.symbolication.store.TablesLookup;
import io.symbolicate.symbols.nativecode.NativePage;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.sources.SourceFile;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.symbols.testing.Snapshots;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Source context in the native step: the frame of Symbolicator's {@code source_candidates}
 * snapshot (example.c:60, from the source bundle beside its dSYM) comes out with the snapshot's
 * context lines; none when the step is configured without, or the module's table has no sources.
 */
class NativeSourceContextTest {
  static final Path SYMBOLICATOR =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolicator");
  static final String DEBUG_ID = "7F883FCDC55336D0A809B0150F09500B0";
  static final String EXAMPLE_C = "/Users/swatinem/Coding/sentry-native/examples/example.c";
  static final ModuleRef REF =
      new ModuleRef("global", TableKind.NATIVE, "sentry_example/" + DEBUG_ID);

  /** The snapshot's frame as a .sym gives it (its address, function, file and line). */
  static NativeTable symbols() throws IOException {
    String sym =
        "MODULE mac x86_64 "
            + DEBUG_ID
            + " sentry_example\nFILE 0 "
            + EXAMPLE_C
            + "\nFUNC 3860 40 0 trigger_crash\n3860 20 59 0\n3880 20 60 0\n";
    return NativeSymbols.convert(
        new ByteArrayInputStream(sym.getBytes(StandardCharsets.UTF_8)),
        NativeSymbols.Options.defaults());
  }

  static NativeTable withSources(NativeTable t, List<SourceFile> files) {
    return t.withSources(SourcePages.pages(files, Long.MAX_VALUE, new ArrayList<>()));
  }

  static List<SourceFile> bundleFiles() throws Exception {
    return SourceBundle.read(
            Files.readAllBytes(
                SYMBOLICATOR.resolve("symbols/7f/883fcdc55336d0a809b0150f09500b.src.zip")))
        .files();
  }

  static CrashEvent event() {
    CrashEvent e = SampleEvents.nativeEvent("src-1");
    List<NativeModule> mods = new ArrayList<>(e.getNative$().getModules());
    mods.set(
        0,
        NativeModule.newBuilder(mods.get(0))
            .setDebugFile("sentry_example")
            .setDebugId(DEBUG_ID)
            .build());
    e.getNative$().setModules(mods);
    List<NativeFrame> frames = new ArrayList<>(e.getNative$().getThreads().get(0).getFrames());
    frames.set(0, NativeFrame.newBuilder(frames.get(0)).setModuleOffset(0x3880L).build());
    e.getNative$().getThreads().get(0).setFrames(frames);
    return e;
  }

  static SymbolicatedFrame first(NativeSymbolicator step, TablesLookup lookup) {
    return step.symbolicate(event(), lookup, 0).getStacks().get(0).getFrames().get(0);
  }

  /** The frame's lines as Strings: in memory they are the chunk's {@code SourceLine}s. */
  static List<String> texts(List<CharSequence> lines) {
    return lines.stream().map(CharSequence::toString).toList();
  }

  static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void theSnapshotsFrameComesOutWithItsContext() throws Exception {
    JsonNode want =
        Snapshots.read(
                SYMBOLICATOR.resolve(
                    "snapshots/integration__symbolication__source_candidates.snap"))
            .get("stacktraces")
            .get(0)
            .get("frames")
            .get(0);
    TablesLookup lookup = new TablesLookup().found(REF, withSources(symbols(), bundleFiles()));
    SymbolicatedFrame f = first(new NativeSymbolicator(), lookup);
    assertThat(f.getStatus()).isEqualTo(FrameStatus.symbolicated);
    assertThat(f.getFunction().toString()).isEqualTo(want.get("function").asText());
    assertThat(f.getFile().toString()).isEqualTo(want.get("abs_path").asText());
    assertThat(f.getLine()).isEqualTo(want.get("lineno").asInt());
    assertThat(texts(f.getPreContext())).isEqualTo(strings(want.get("pre_context")));
    assertThat(String.valueOf(f.getContextLine())).isEqualTo(want.get("context_line").asText());
    assertThat(texts(f.getPostContext())).isEqualTo(strings(want.get("post_context")));

    SymbolicatedFrame two = first(new NativeSymbolicator(2), lookup);
    assertThat(texts(two.getPreContext()))
        .isEqualTo(strings(want.get("pre_context")).subList(3, 5));
    assertThat(texts(two.getPostContext()))
        .isEqualTo(strings(want.get("post_context")).subList(0, 2));
  }

  /**
   * The frames carry their chunk's lines as UTF-8 ({@code SourceLine}), which the encoder copies
   * as they are: the event's bytes must be the ones the same lines as Strings give (the path before
   * issue 46's fix), for the snapshot's bundle and for lines that are not ASCII, and read back as
   * the snapshot's lines.
   */
  @Test
  void theEncodedEventIsTheOneStringLinesGive() throws Exception {
    JsonNode want =
        Snapshots.read(
                SYMBOLICATOR.resolve(
                    "snapshots/integration__symbolication__source_candidates.snap"))
            .get("stacktraces")
            .get(0)
            .get("frames")
            .get(0);
    StringBuilder text = new StringBuilder();
    for (int l = 1; l <= 100; l++) {
      text.append(
          l % 2 == 0 ? "  int größe_" + l + " = 1; // \u00e9t\u00e9 \ud83d\udca5\n" : "x\r\n");
    }
    AvroSerde<SymbolicatedEvent> serde = WireSerdes.symbolicatedEvent();
    for (List<SourceFile> files :
        List.of(
            bundleFiles(),
            List.of(new SourceFile("files/a", "source", EXAMPLE_C, null, null, text.toString())))) {
      TablesLookup lookup = new TablesLookup().found(REF, withSources(symbols(), files));
      SymbolicatedEvent out = new NativeSymbolicator().symbolicate(event(), lookup, 0);
      byte[] shared = serde.encode(out);
      int withContext = 0;
      for (SymbolicatedStack s : out.getStacks()) {
        for (SymbolicatedFrame f : s.getFrames()) {
          if (f.getContextLine() != null) {
            withContext++;
            f.setPreContext(new ArrayList<>(texts(f.getPreContext())));
            f.setContextLine(f.getContextLine().toString());
            f.setPostContext(new ArrayList<>(texts(f.getPostContext())));
          }
        }
      }
      assertThat(withContext).isEqualTo(1);
      assertThat(serde.encode(out)).isEqualTo(shared);
    }
    SymbolicatedFrame back =
        serde
            .decode(
                serde.encode(
                    new NativeSymbolicator()
                        .symbolicate(
                            event(),
                            new TablesLookup().found(REF, withSources(symbols(), bundleFiles())),
                            0)))
            .getStacks()
            .get(0)
            .getFrames()
            .get(0);
    assertThat(texts(back.getPreContext())).isEqualTo(strings(want.get("pre_context")));
    assertThat(String.valueOf(back.getContextLine())).isEqualTo(want.get("context_line").asText());
    assertThat(texts(back.getPostContext())).isEqualTo(strings(want.get("post_context")));
  }

  @Test
  void noContextWhenOffOrWithoutSources() throws Exception {
    SymbolicatedFrame off =
        first(
            new NativeSymbolicator(0),
            new TablesLookup().found(REF, withSources(symbols(), bundleFiles())));
    assertThat(off.getStatus()).isEqualTo(FrameStatus.symbolicated);
    assertThat(off.getContextLine()).isNull();
    assertThat(off.getPreContext()).isEmpty();

    SymbolicatedFrame none =
        first(new NativeSymbolicator(), new TablesLookup().found(REF, symbols()));
    assertThat(none.getStatus()).isEqualTo(FrameStatus.symbolicated);
    assertThat(none.getContextLine()).isNull();
  }

  @Test
  void anAddressInTheSourcesRangeFindsWhatTheTableWithoutThemFinds() throws Exception {
    // a FUNC in the top 2 MiB that reaches into the sources' range: its page answers
    String sym =
        "MODULE mac x86_64 "
            + DEBUG_ID
            + " sentry_example\nFILE 0 "
            + EXAMPLE_C
            + "\nFUNC ffffffffffe00000 1fffff 0 to_the_top\nffffffffffe00000 1fffff 60 0\n";
    NativeTable own =
        NativeSymbols.convert(
            new ByteArrayInputStream(sym.getBytes(StandardCharsets.UTF_8)),
            NativeSymbols.Options.defaults());
    NativeTable both = withSources(own, bundleFiles());
    TablesLookup lookup = new TablesLookup().found(REF, both);
    var r = lookup.resolve(REF);
    assertThat(SourceContextLookup.hasSources(r)).isTrue();
    NativeSymbolizer store =
        new NativeSymbolizer(
            own.nativeHeader(), SourceContextLookup.tablePages(lookup, r, NativePage::decode));
    long top = SourcePages.BASE_KEY + 7;
    assertThat(NativeSymbolizer.inMemory(own).lookup(top).function()).isEqualTo("to_the_top");
    assertThat(store.lookup(top).function()).isEqualTo("to_the_top");
    assertThat(store.lookup(-2L).function()).isEqualTo("to_the_top");
    assertThat(store.lookup(-1L)).isNull(); // past the FUNC, as without sources
    assertThat(NativeSymbolizer.inMemory(own).lookup(-1L)).isNull();
    assertThat(NativeSymbolizer.inMemory(both).lookup(top).function()).isEqualTo("to_the_top");
  }

  @Test
  void theEventsBudgetBoundsTheContext() throws Exception {
    // one file of long lines: each frame's context is 11 lines of 147 chars; the budget of 1 Mi
    // chars runs out after ~650 frames, and the frames past it say so
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      text.append("x".repeat(300)).append('\n');
    }
    NativeTable t =
        withSources(
            symbols(),
            List.of(new SourceFile("files/e.c", "source", EXAMPLE_C, null, null, text.toString())));
    CrashEvent e = event();
    List<NativeFrame> frames = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      frames.add(
          NativeFrame.newBuilder()
              .setModuleIndex(0)
              .setModuleOffset(0x3880L)
              .setTrust("context")
              .build());
    }
    e.getNative$().getThreads().get(0).setFrames(frames);
    List<SymbolicatedFrame> out =
        new NativeSymbolicator()
            .symbolicate(e, new TablesLookup().found(REF, t), 0)
            .getStacks()
            .get(0)
            .getFrames();
    long withContext = out.stream().filter(f -> f.getContextLine() != null).count();
    long chars = 11L * (140 + " {snip}".length());
    assertThat(withContext).isEqualTo(SourceContextLookup.MAX_CHARS_PER_EVENT / chars);
    assertThat(out.get(999).getMessage()).contains("context budget");
  }
}
