package io.symbolicate.connectors.loader.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.FileSystemSource;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.sources.SourceContext;
import io.symbolicate.symbols.sources.SourcePage;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.symbols.testing.Snapshots;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Symbolicator's dSYM and the source bundle beside it ({@code ../shared/fixtures/difs/
 * getsentry-symbolicator/symbols/7f/}), placed in our layouts: the loader finds the bundle, the
 * table carries its sources, and the frame of Symbolicator's {@code source_candidates} snapshot
 * (0x3880) comes back with its file, line and context lines.
 */
class NativeSourceBundleTest {
  static final Path SYMBOLICATOR =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolicator");
  static final Path DSYM = SYMBOLICATOR.resolve("symbols/7f/883fcdc55336d0a809b0150f09500b.debug");
  static final Path BUNDLE =
      SYMBOLICATOR.resolve("symbols/7f/883fcdc55336d0a809b0150f09500b.src.zip");
  static final String DEBUG_ID = "7F883FCDC55336D0A809B0150F09500B0";

  @TempDir Path dir;

  static JsonNode expectedFrame() throws IOException {
    return Snapshots.read(
            SYMBOLICATOR.resolve("snapshots/integration__symbolication__source_candidates.snap"))
        .get("stacktraces")
        .get(0)
        .get("frames")
        .get(0);
  }

  private void place(String key, Path file) throws IOException {
    Path p = dir.resolve(key);
    Files.createDirectories(p.getParent());
    Files.copy(file, p);
  }

  private NativeTable load(ModuleRef ref, String layouts) throws Exception {
    NativeModuleLocator locator =
        new NativeModuleLocator(DebugFileLayouts.parse(layouts), DebugFileInput.DEFAULT_MAX_BYTES);
    FetchResult r = locator.fetch(ref, new SourceChain(List.of(new FileSystemSource(dir))));
    assertThat(r).isInstanceOf(FetchResult.Found.class);
    try (FetchResult.Found found = (FetchResult.Found) r) {
      return (NativeTable)
          new NativeTableConverter()
              .convert(
                  ref, found, found.body(), DebugFileInput.DEFAULT_MAX_BYTES, LoadPacer.unpaced());
    }
  }

  static void assertSnapshotFrame(NativeTable table) throws IOException {
    JsonNode want = expectedFrame();
    NativeSymbolizer symbolizer = NativeSymbolizer.inMemory(table);
    long address = Long.decode(want.get("instruction_addr").asText());
    NativeFrame f = symbolizer.lookup(address);
    assertThat(f.function()).isEqualTo(want.get("function").asText());
    assertThat(f.file()).isEqualTo(want.get("abs_path").asText());
    assertThat(f.line()).isEqualTo(want.get("lineno").asInt());
    List<TablePage> sources =
        table.pages().stream().filter(p -> SourcePages.isSourceKey(p.firstKey())).toList();
    assertThat(sources).isNotEmpty();
    SourceContext c =
        SourcePages.context(
            new InMemoryPageSource<SourcePage>(sources, SourcePages::decode),
            f.file(),
            f.line(),
            5);
    assertThat(c.preContext()).isEqualTo(strings(want.get("pre_context")));
    assertThat(c.contextLine()).isEqualTo(want.get("context_line").asText());
    assertThat(c.postContext()).isEqualTo(strings(want.get("post_context")));
  }

  static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void theBundleBesideADebugFileInTheNativeLayout() throws Exception {
    String folder = "sentry_example.debug/" + DEBUG_ID + "/";
    place(folder + "sentry_example.debug", DSYM);
    place(folder + "sentry_example.src.zip", BUNDLE);
    NativeTable t =
        load(
            new ModuleRef("global", TableKind.NATIVE, "sentry_example.debug/" + DEBUG_ID),
            "dir:native");
    assertSnapshotFrame(t);
  }

  @Test
  void theBundleOfTheUnifiedLayout() throws Exception {
    place("7f/883fcdc55336d0a809b0150f09500b0/debuginfo", DSYM);
    place("7f/883fcdc55336d0a809b0150f09500b0/sourcebundle", BUNDLE);
    NativeTable t =
        load(
            new ModuleRef("global", TableKind.NATIVE, "sentry_example/" + DEBUG_ID), "dir:unified");
    assertSnapshotFrame(t);
  }

  @Test
  void aBundleOfAnotherModuleIsLeftOut() throws Exception {
    // the same dSYM under another debug id would be refused by the converter; the bundle is
    // checked on its own: placed beside a .sym of another id, it is not the module's
    String other = "0123456789ABCDEF0123456789ABCDEF0";
    String folder = "other/" + other + "/";
    Files.createDirectories(dir.resolve(folder));
    Files.writeString(
        dir.resolve(folder + "other.sym"),
        "MODULE mac x86_64 " + other + " other\nFILE 0 /a.c\nFUNC 10 10 0 f\n10 10 1 0\n");
    place(folder + "other.src.zip", BUNDLE);
    NativeTable t = load(new ModuleRef("global", TableKind.NATIVE, "other/" + other), "dir:native");
    assertThat(t.pages()).noneMatch(p -> SourcePages.isSourceKey(p.firstKey()));
    assertThat(NativeSymbolizer.inMemory(t).lookup(0x10).function()).isEqualTo("f");
  }

  @Test
  void sourceBundleKeys() {
    var q = new DebugFileLayout.Query("crash.pdb", DEBUG_ID, null, null);
    assertThat(DebugFileLayout.NATIVE.keys(q, DebugFileLayout.Kind.SOURCE_BUNDLE))
        .containsExactly(
            "crash.pdb/" + DEBUG_ID + "/crash.src.zip",
            "crash.pdb/" + DEBUG_ID + "/crash.pdb.src.zip");
    assertThat(DebugFileLayout.UNIFIED.keys(q, DebugFileLayout.Kind.SOURCE_BUNDLE))
        .containsExactly("7f/883fcdc55336d0a809b0150f09500b0/sourcebundle");
    assertThat(DebugFileLayout.SYMSTORE.keys(q, DebugFileLayout.Kind.SOURCE_BUNDLE))
        .containsExactly("crash.pdb/7F883FCDC55336D0A809B0150F09500B0/crash.src.zip");
    assertThat(DebugFileLayout.DEBUGINFOD.keys(q, DebugFileLayout.Kind.SOURCE_BUNDLE)).isEmpty();
  }
}
