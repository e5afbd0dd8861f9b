package io.symbolicate.connectors.loader.dotnet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.FileSystemSource;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.symbols.dotnet.DotnetPage;
import io.symbolicate.symbols.dotnet.DotnetTable;
import io.symbolicate.symbols.dotnet.EmbeddedSource;
import io.symbolicate.symbols.dotnet.PortablePdb;
import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.sources.SourceContext;
import io.symbolicate.symbols.sources.SourcePage;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.symbols.testing.Snapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source bundle beside a Portable PDB gives context to the documents the PDB does not embed.
 * Symbolicator's {@code portable-embedded.pdb} with its embedded-source records made unknown
 * (their kind GUID changed: the PDB then embeds nothing, its lines and id unchanged), and a
 * bundle holding the file the PDB embedded, beside it in each layout: the frame of
 * Symbolicator's {@code dotnet_embedded_sources} snapshot comes back with the snapshot's file,
 * line and context lines. The bundle keys are the ones Symbolicator's .NET snapshots list.
 */
class DotnetSourceBundleTest {
  static final Path SYMBOLICATOR =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolicator");
  static final Path PDB =
      SYMBOLICATOR.resolve(
          "symbols/portable-embedded.pdb/B6919861510C48879994943F64F70C37ffffffff/"
              + "portable-embedded.pdb");
  static final ModuleRef MODULE =
      new ModuleRef(
          "global",
          TableKind.DOTNET,
          "portable-embedded.pdb/B6919861510C48879994943F64F70C37870B9EF9");

  /** The embedded-source kind, {@code 0e8a571b-6926-466e-b4ad-8ab04611f5fe}, as stored. */
  static final byte[] EMBEDDED_SOURCE_GUID = {
    0x1b,
    0x57,
    (byte) 0x8a,
    0x0e,
    0x26,
    0x69,
    0x6e,
    0x46,
    (byte) 0xb4,
    (byte) 0xad,
    (byte) 0x8a,
    (byte) 0xb0,
    0x46,
    0x11,
    (byte) 0xf5,
    (byte) 0xfe
  };

  @TempDir Path dir;

  static JsonNode expectedFrame() throws IOException {
    return Snapshots.read(
            SYMBOLICATOR.resolve(
                "snapshots/integration__symbolication__dotnet_embedded_sources.snap"))
        .get("stacktraces")
        .get(0)
        .get("frames")
        .get(0);
  }

  /** The PDB with its embedded-source records of another (unknown) kind. */
  static byte[] withoutEmbeddedSources(byte[] pdb) {
    byte[] out = pdb.clone();
    int at = indexOf(out, EMBEDDED_SOURCE_GUID);
    assertThat(at).as("the embedded-source kind in the #GUID heap").isPositive();
    assertThat(indexOf(out, EMBEDDED_SOURCE_GUID, at + 1)).as("stored once").isNegative();
    out[at] ^= 0x55;
    return out;
  }

  static int indexOf(byte[] b, byte[] what) {
    return indexOf(b, what, 0);
  }

  static int indexOf(byte[] b, byte[] what, int from) {
    outer:
    for (int i = from; i + what.length <= b.length; i++) {
      for (int j = 0; j < what.length; j++) {
        if (b[i + j] != what[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** A source bundle as sentry-cli writes one: the SYSB header, then the zip. */
  static byte[] bundle(String debugId, String path, byte[] contents) throws IOException {
    String zipPath = "files/" + path.replace('\\', '/').replace(":", "");
    String manifest =
        "{\"files\": {\""
            + zipPath
            + "\": {\"type\": \"source\", \"path\": \""
            + path.replace("\\", "\\\\")
            + "\"}}, \"debug_id\": \""
            + debugId
            + "\", \"object_name\": \"portable-embedded.pdb\", \"arch\": \"unknown\"}";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0});
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("manifest.json"));
      zip.write(manifest.getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry(zipPath));
      zip.write(contents);
      zip.closeEntry();
    }
    return out.toByteArray();
  }

  /** The bytes the original PDB embeds for the snapshot frame's document. */
  static byte[] embeddedContents(String path) throws IOException {
    for (EmbeddedSource s : PortablePdb.parse(Files.readAllBytes(PDB)).embeddedSources()) {
      if (s.path().equals(path)) {
        return s.contents();
      }
    }
    throw new AssertionError("the PDB embeds no " + path);
  }

  private void place(String key, byte[] bytes) throws IOException {
    Path p = dir.resolve(key);
    Files.createDirectories(p.getParent());
    Files.write(p, bytes);
  }

  private DotnetTable load(DebugFileLayout layout) throws Exception {
    DotnetModuleLocator locator = new DotnetModuleLocator(s -> List.of(layout));
    FetchResult r = locator.fetch(MODULE, new SourceChain(List.of(new FileSystemSource(dir))));
    assertThat(r).isInstanceOf(FetchResult.Found.class);
    try (FetchResult.Found found = (FetchResult.Found) r) {
      return (DotnetTable)
          new DotnetTableConverter()
              .convert(
                  MODULE,
                  found,
                  found.body(),
                  DebugFileInput.DEFAULT_MAX_BYTES,
                  LoadPacer.unpaced());
    }
  }

  /** The snapshot frame's line, and its context from the table's source pages (or null). */
  static SourceContext snapshotFrame(DotnetTable table, JsonNode want) {
    int method = Integer.decode(want.get("function_id").asText());
    long il = Long.decode(want.get("instruction_addr").asText());
    List<TablePage> own =
        table.pages().stream().filter(p -> !SourcePages.isSourceKey(p.firstKey())).toList();
    DotnetPage.Line line =
        DotnetTable.lookup(new InMemoryPageSource<>(own, DotnetPage::decode), method, il)
            .orElseThrow();
    assertThat(line.file()).isEqualTo(want.get("abs_path").asText());
    assertThat(line.line()).isEqualTo(want.get("lineno").asInt());
    List<TablePage> sources =
        table.pages().stream().filter(p -> SourcePages.isSourceKey(p.firstKey())).toList();
    if (sources.isEmpty()) {
      return null;
    }
    return SourcePages.context(
        new InMemoryPageSource<SourcePage>(sources, SourcePages::decode),
        line.file(),
        line.line(),
        5);
  }

  static void assertSnapshotContext(SourceContext c, JsonNode want) {
    assertThat(c).as("context lines").isNotNull();
    List<String> pre = new ArrayList<>();
    want.get("pre_context").forEach(n -> pre.add(n.asText()));
    assertThat(c.preContext()).isEqualTo(pre);
    assertThat(c.contextLine()).isEqualTo(want.get("context_line").asText());
    assertThat(want.has("post_context")).isFalse();
    assertThat(c.postContext()).isEmpty();
  }

  @Test
  void aBundleBesideAPdbWithoutEmbeddedSourcesGivesTheSnapshotsContextInEachLayout()
      throws Exception {
    JsonNode want = expectedFrame();
    String path = want.get("abs_path").asText();
    byte[] stripped = withoutEmbeddedSources(Files.readAllBytes(PDB));
    PortablePdb pdb = PortablePdb.parse(stripped);
    assertThat(pdb.embeddedSources()).isEmpty();
    byte[] bundle = bundle(pdb.debugId(), path, embeddedContents(path));
    for (DebugFileLayout layout :
        List.of(DebugFileLayout.NATIVE, DebugFileLayout.SYMSTORE, DebugFileLayout.UNIFIED)) {
      String pdbKey = DotnetModuleLocator.keys(MODULE, List.of(layout)).get(0);
      place(pdbKey, stripped);
      assertThat(snapshotFrame(load(layout), want))
          .as("%s: no bundle, no context", layout)
          .isNull();
      String bundleKey = DotnetModuleLocator.bundleKeys(MODULE, List.of(layout)).get(0);
      place(bundleKey, bundle);
      assertSnapshotContext(snapshotFrame(load(layout), want), want);
      Files.delete(dir.resolve(pdbKey));
      Files.delete(dir.resolve(bundleKey));
    }
  }

  @Test
  void embeddedSourcesWinOverTheBundlesCopy() throws Exception {
    JsonNode want = expectedFrame();
    String path = want.get("abs_path").asText();
    byte[] original = Files.readAllBytes(PDB);
    String other = "// another revision\n".repeat(20);
    place(DotnetModuleLocator.keys(MODULE, List.of(DebugFileLayout.NATIVE)).get(0), original);
    place(
        DotnetModuleLocator.bundleKeys(MODULE, List.of(DebugFileLayout.NATIVE)).get(0),
        bundle(
            PortablePdb.parse(original).debugId(), path, other.getBytes(StandardCharsets.UTF_8)));
    assertSnapshotContext(snapshotFrame(load(DebugFileLayout.NATIVE), want), want);
  }

  @Test
  void aBundleOfAnotherPdbIsLeftOut() throws Exception {
    JsonNode want = expectedFrame();
    String path = want.get("abs_path").asText();
    byte[] stripped = withoutEmbeddedSources(Files.readAllBytes(PDB));
    place(DotnetModuleLocator.keys(MODULE, List.of(DebugFileLayout.NATIVE)).get(0), stripped);
    place(
        DotnetModuleLocator.bundleKeys(MODULE, List.of(DebugFileLayout.NATIVE)).get(0),
        bundle("0c1033f7-8632-492e-91c6-c314b72e1920-e60b819d", path, embeddedContents(path)));
    DotnetTable t = load(DebugFileLayout.NATIVE);
    assertThat(snapshotFrame(t, want)).as("lines found, no context").isNull();
  }

  /**
   * The symbol-store bundle keys are the {@code .src.zip} candidates of Symbolicator's .NET
   * snapshots, in its order (the PDB's own stamp, then {@code ffffffff}).
   */
  @Test
  void bundleKeysAreSymbolicatorsCandidates() throws Exception {
    Pattern location = Pattern.compile("location: \"http://localhost:<port>/symbols/([^\"]+)\"");
    Pattern debugId = Pattern.compile("(?m)^    debug_id: ([0-9a-f-]+)$");
    Pattern debugFile = Pattern.compile("(?m)^    debug_file: (\\S+)$");
    int checked = 0;
    for (String test :
        List.of(
            "dotnet_integration",
            "dotnet_embedded_sources",
            "dotnet_source_links",
            "dotnet_only_source_links")) {
      String snap =
          Files.readString(
              SYMBOLICATOR.resolve("snapshots/integration__symbolication__" + test + ".snap"));
      List<String> bundles = new ArrayList<>();
      Matcher m = location.matcher(snap);
      while (m.find()) {
        if (m.group(1).endsWith(".src.zip")) {
          bundles.add(m.group(1));
        }
      }
      Matcher id = debugId.matcher(snap);
      Matcher file = debugFile.matcher(snap);
      assertThat(id.find() && file.find()).as(test).isTrue();
      ModuleRef ref =
          new ModuleRef(
              "global",
              TableKind.DOTNET,
              file.group(1) + "/" + id.group(1).replace("-", "").toUpperCase());
      assertThat(DotnetModuleLocator.bundleKeys(ref, List.of(DebugFileLayout.SYMSTORE)))
          .as(test)
          .isEqualTo(bundles)
          .hasSize(2);
      checked++;
    }
    assertThat(checked).isEqualTo(4);
    assertThat(DotnetModuleLocator.bundleKeys(MODULE, List.of(DebugFileLayout.NATIVE)))
        .containsExactly(
            "portable-embedded.pdb/B6919861510C48879994943F64F70C37870B9EF9/portable-embedded.src.zip",
            "portable-embedded.pdb/B6919861510C48879994943F64F70C37870B9EF9/"
                + "portable-embedded.pdb.src.zip");
    assertThat(DotnetModuleLocator.bundleKeys(MODULE, List.of(DebugFileLayout.UNIFIED)))
        .containsExactly("b6/919861510c48879994943f64f70c37870b9ef9/sourcebundle");
  }
}
