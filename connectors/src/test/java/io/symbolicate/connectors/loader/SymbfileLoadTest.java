package io.symbolicate.connectors.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.connectors.source.FileSystemSource;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.nativecode.InlineFrame;
import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.symbfile.FileId;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import io.symbolicate.symbols.symbfile.SymbfileWriter;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A native module named by its FileID loads from {@code symbfile/<FileID>/ranges.symbfile} (plus
 * {@code returnpads.symbfile} when there) in a directory source, through the app's locator and
 * converter, into one table that answers like the peer's fixture says.
 */
class SymbfileLoadTest {
  @TempDir Path root;
  private FileId id;
  private CompactTable loaded;

  private final TableSink sink =
      new TableSink() {
        @Override
        public ModuleState publishFound(
            ModuleRef ref, CompactTable table, String source, long now) {
          loaded = table;
          return state(ref, TableStatus.found, source);
        }

        @Override
        public ModuleState publishNegative(
            ModuleRef ref,
            TableStatus status,
            int formatVersion,
            String message,
            String source,
            long now,
            long retryAfter) {
          return ModuleState.newBuilder(state(ref, status, message)).setSource(source).build();
        }

        @Override
        public void deletePages(ModuleRef ref, long generation, List<Long> pageKeys) {}
      };

  private static ModuleState state(ModuleRef ref, TableStatus status, String message) {
    return ModuleState.newBuilder()
        .setModule(ref.toString())
        .setStatus(status)
        .setFormatVersion(0)
        .setGeneration(0)
        .setHeader(null)
        .setPageCount(0)
        .setPageKeys(List.of())
        .setTableBytes(0)
        .setSource("test")
        .setMessage(message)
        .setUpdatedAt(Instant.EPOCH)
        .setLastUsed(null)
        .setRetryAfter(null)
        .build();
  }

  private static Path testdata(String name) {
    return SharedFixtures.fixtures("symbfile")
        .resolve("otel-ebpf-profiler/rust-crates/symblib/testdata/" + name);
  }

  @BeforeEach
  void fileId() throws IOException {
    id = FileId.of(testdata("inline-no-tco"));
  }

  private ModuleState load(ModuleRef ref) throws Exception {
    ModuleFetcher f =
        new ModuleFetcher(
            new SourceChain(List.of(new FileSystemSource(root))),
            TestEngines.converters(),
            TestEngines.locators(),
            LoaderSettings.defaults(),
            new SymbolLoader.Stats());
    return f.load(ref, sink, null).state();
  }

  private Path put(String key, byte[] bytes) throws IOException {
    Path p = root.resolve(key);
    Files.createDirectories(p.getParent());
    Files.write(p, bytes);
    return p;
  }

  private static byte[] returnPads() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (SymbfileWriter w = new SymbfileWriter(b)) {
      w.stringTable(List.of("d", "pad.c"));
      w.returnPad(0x7b3, new String[] {"d"}, new String[] {"pad.c"}, new int[] {1007});
    }
    return b.toByteArray();
  }

  private NativeSymbolizer table() throws Exception {
    assertThat(loaded).isInstanceOf(NativeTable.class);
    return NativeSymbolizer.inMemory((NativeTable) loaded);
  }

  @Test
  void aFileIdModuleLoadsItsRangesAndReturnPads() throws Exception {
    put(
        SymbfileKeys.ranges("global", id),
        Files.readAllBytes(testdata("inline-no-tco.ranges.symbfile")));
    put(SymbfileKeys.returnPads("global", id), returnPads());
    ModuleRef ref = new ModuleRef("global", TableKind.NATIVE, SymbfileKeys.moduleKey(id));
    assertThat(ref.key()).isEqualTo("symbfile/" + id.toBase64()).hasSize(9 + 22);

    ModuleState s = load(ref);
    assertThat(s.getStatus()).isEqualTo(TableStatus.found);
    NativeSymbolizer t = table();
    NativeFrame f = t.lookup(0x650);
    assertThat(f.function()).isEqualTo("main");
    assertThat(f.inlines())
        .extracting(InlineFrame::function)
        .containsExactly("d_inline", "c_inline", "b_inline", "a_inline");
    // the pad wins for the caller frame whose return address is 0x7b4
    NativeFrame caller = t.returnPad(0x7b4);
    assertThat(caller.function()).isEqualTo("d");
    assertThat(caller.line()).isEqualTo(1007);
    assertThat(t.lookup(0x7b3).line()).isEqualTo(7);
  }

  @Test
  void returnPadsAreOptionalAndRangesMayBeGzipped() throws Exception {
    Path p = root.resolve(SymbfileKeys.ranges("acme", id));
    Files.createDirectories(p.getParent());
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
      out.write(Files.readAllBytes(testdata("inline-no-tco.ranges.symbfile")));
    }
    assertThat(p.toString()).contains("scopes/acme/symbfile/" + id.toBase64() + "/ranges.symbfile");
    ModuleState s = load(new ModuleRef("acme", TableKind.NATIVE, SymbfileKeys.moduleKey(id)));
    assertThat(s.getStatus()).isEqualTo(TableStatus.found);
    assertThat(table().returnPad(0x7b4)).isNull();
    assertThat(table().lookup(0x7b3).function()).isEqualTo("d");
    // the global scope does not see acme's files
    assertThat(
            load(new ModuleRef("global", TableKind.NATIVE, SymbfileKeys.moduleKey(id))).getStatus())
        .isEqualTo(TableStatus.missing);
  }

  @Test
  void returnPadsWithoutRangesAreMissing() throws Exception {
    put(SymbfileKeys.returnPads("global", id), returnPads());
    ModuleState s = load(new ModuleRef("global", TableKind.NATIVE, SymbfileKeys.moduleKey(id)));
    assertThat(s.getStatus()).isEqualTo(TableStatus.missing);
    assertThat(s.getSource()).contains("symbfile/" + id.toBase64() + "/ranges.symbfile");
  }

  @Test
  void aCorruptRangesOrReturnPadsFileIsMalformedWithTheReason() throws Exception {
    byte[] ranges = Files.readAllBytes(testdata("inline-no-tco.ranges.symbfile"));
    byte[] cut = Arrays.copyOf(ranges, ranges.length - 5);
    put(SymbfileKeys.ranges("global", id), cut);
    ModuleRef ref = new ModuleRef("global", TableKind.NATIVE, SymbfileKeys.moduleKey(id));
    ModuleState s = load(ref);
    assertThat(s.getStatus()).isEqualTo(TableStatus.malformed);
    assertThat(s.getMessage()).startsWith("symbfile (ranges): ");

    put(SymbfileKeys.ranges("global", id), ranges);
    byte[] pads = returnPads();
    put(SymbfileKeys.returnPads("global", id), Arrays.copyOf(pads, pads.length - 3));
    ModuleState p = load(ref);
    assertThat(p.getStatus()).isEqualTo(TableStatus.malformed);
    assertThat(p.getMessage()).startsWith("symbfile (return pads): ");
  }

  @Test
  void aFileIdKeyIsCanonicalInBase64UrlAndABadOneIsRefused() {
    ModuleRef hex = new ModuleRef("global", TableKind.NATIVE, "symbfile/" + id.toHex());
    assertThat(SymbolLoader.canonical(hex).key()).isEqualTo(SymbfileKeys.moduleKey(id));
    ModuleLocator locator = TestEngines.locators().get(TableKind.NATIVE);
    assertThat(locator.keys(hex)).containsExactly("symbfile/" + id.toBase64() + "/ranges.symbfile");
    assertThatThrownBy(
            () -> locator.keys(new ModuleRef("global", TableKind.NATIVE, "symbfile/../../etc")))
        .isInstanceOf(DebugIdentifiers.InvalidIdentifierException.class);
    // Breakpad modules keep Mozilla's layout
    assertThat(
            locator.keys(
                new ModuleRef(
                    "global", TableKind.NATIVE, "app.pdb/0123456789ABCDEF0123456789ABCDEF1")))
        .contains("app.pdb/0123456789ABCDEF0123456789ABCDEF1/app.sym");
  }
}
