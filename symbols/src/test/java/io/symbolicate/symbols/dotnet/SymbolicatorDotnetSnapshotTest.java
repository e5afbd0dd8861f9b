package io.symbolicate.symbols.dotnet;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The frames of Sentry Symbolicator's .NET integration snapshots
 * (integration__symbolication__dotnet_*.snap) looked up in the same Portable PDBs: line, path,
 * language, the debug id the request names, and the Source Link URL.
 */
class SymbolicatorDotnetSnapshotTest {
  static final Path SYMBOLS =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolicator/symbols");

  static PortablePdb pdb(String rel) throws IOException {
    return PortablePdb.parse(Files.readAllBytes(SYMBOLS.resolve(rel)));
  }

  static void frame(PortablePdb pdb, int method, int il, int line, String absPath) {
    PpdbLineTable.LineInfo info = PpdbLineTable.build(pdb).lookup(method, il).orElseThrow();
    assertThat(info.line()).as("function_id %d IL %d", method, il).isEqualTo(line);
    assertThat(info.document().name()).isEqualTo(absPath);
    assertThat(info.document().language()).isEqualTo("csharp");
  }

  /** The paged table answers the frame's Source Link URL as the snapshot's {@code source_link}. */
  static void tableSourceLink(PortablePdb pdb, int method, int il, String url) {
    DotnetTable table = DotnetTable.build(pdb);
    assertThat(table.parsedHeader().sourceLink()).isEqualTo(url != null);
    assertThat(DotnetTable.lookup(table.inMemory(), method, il).orElseThrow().sourceLink())
        .isEqualTo(url);
  }

  @Test
  void dotnetIntegration() throws IOException {
    PortablePdb pdb =
        pdb("integration.pdb/0C1033F78632492E91C6C314B72E1920ffffffff/integration.pdb");
    assertThat(pdb.debugId()).isEqualTo("0c1033f7-8632-492e-91c6-c314b72e1920-e60b819d");
    String program = "/Users/swatinem/Coding/sentry-dotnet/samples/foo/Program.cs";
    frame(pdb, 6, 0xa, 55, program);
    frame(pdb, 5, 0x6, 48, program);
    frame(pdb, 3, 0x0, 41, program);
    frame(pdb, 2, 0x0, 36, program);
    frame(pdb, 1, 0x2d, 18, program);
    tableSourceLink(pdb, 1, 0x2d, null);
  }

  @Test
  void dotnetEmbeddedSources() throws IOException {
    PortablePdb pdb =
        pdb("portable-embedded.pdb/B6919861510C48879994943F64F70C37ffffffff/portable-embedded.pdb");
    assertThat(pdb.debugId()).isEqualTo("b6919861-510c-4887-9994-943f64f70c37-870b9ef9");
    String program = "C:\\dev\\sentry-dotnet\\samples\\Sentry.Samples.Console.Basic\\Program.cs";
    frame(pdb, 5, 0x2f, 13, program);
    assertThat(pdb.embeddedSources()).extracting(EmbeddedSource::path).contains(program);
  }

  @Test
  void dotnetSourceLinks() throws IOException {
    PortablePdb pdb =
        pdb("source-links.pdb/37E9E8A61A8E404EB93C6902E277FF55ffffffff/source-links.pdb");
    assertThat(pdb.debugId()).isEqualTo("37e9e8a6-1a8e-404e-b93c-6902e277ff55-a09672e1");
    String path = "/_/src/libraries/Common/src/System/ThrowHelper.cs";
    frame(pdb, 7, 0x1, 24, path);
    String url =
        "https://raw.githubusercontent.com/dotnet/runtime/"
            + "d099f075e45d2aa6007a22b71b45a08758559f80/src/libraries/Common/src/System/ThrowHelper.cs";
    assertThat(pdb.sourceLinks().resolve(path)).contains(url);
    tableSourceLink(pdb, 7, 0x1, url);
  }

  @Test
  void dotnetOnlySourceLinks() throws IOException {
    PortablePdb pdb =
        pdb("source-links.pdb/0C380A12822140698565BEE6B3AC196Effffffff/source-links.pdb");
    assertThat(pdb.debugId()).isEqualTo("0c380a12-8221-4069-8565-bee6b3ac196e-a596286e");
    String path = "C:\\dev\\dotnet\\samples\\Sentry.Samples.Console.Basic\\Program.cs";
    frame(pdb, 5, 0x2f, 13, path);
    String url =
        "https://raw.githubusercontent.com/getsentry/sentry-dotnet/"
            + "b31b62192e6934ea04396456461f430e143cf4f9/samples/Sentry.Samples.Console.Basic/Program.cs";
    assertThat(pdb.sourceLinks().resolve(path)).contains(url);
    tableSourceLink(pdb, 5, 0x2f, url);
  }
}
