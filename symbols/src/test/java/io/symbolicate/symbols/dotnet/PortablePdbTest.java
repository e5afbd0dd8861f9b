package io.symbolicate.symbols.dotnet;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Portable PDB reader against Sentry symbolic's assertions (symbolic-ppdb's test_ppdb.rs and
 * test_caches.rs, symbolic-debuginfo's test_objects.rs and its ppdb_files snapshot), with their
 * fixtures in ../shared/fixtures/difs/getsentry-symbolic.
 */
class PortablePdbTest {
  static final Path SYMBOLIC = SharedFixtures.fixtures("difs").resolve("getsentry-symbolic");
  static final String PROGRAM_CS = "/Users/swatinem/Coding/sentry-dotnet/samples/foo/Program.cs";

  static byte[] read(String rel) throws IOException {
    return Files.readAllBytes(SYMBOLIC.resolve(rel));
  }

  static PortablePdb pdb(String rel) throws IOException {
    return PortablePdb.parse(read(rel));
  }

  @Test
  void headerAndDocumentsOfPortablePdb() throws IOException {
    PortablePdb pdb = pdb("testutils/windows/portable.pdb");
    // test_objects.rs test_ppdb: "PDB v1.0", six streams, each of them present
    assertThat(pdb.version()).isEqualTo("PDB v1.0");
    assertThat(pdb.root().streams.keySet())
        .containsExactlyInAnyOrder("#Pdb", "#~", "#Strings", "#US", "#Blob", "#GUID");
    // test_ppdb_files: 4 files, named as the ppdb_files snapshot lists them
    assertThat(pdb.documents())
        .extracting(Document::name)
        .containsExactly(
            PROGRAM_CS,
            "/Users/swatinem/Coding/sentry-dotnet/samples/foo/obj/Debug/net6.0/foo.GlobalUsings.g.cs",
            "/Users/swatinem/Coding/sentry-dotnet/samples/foo/obj/Debug/net6.0/"
                + ".NETCoreApp,Version=v6.0.AssemblyAttributes.cs",
            "/Users/swatinem/Coding/sentry-dotnet/samples/foo/obj/Debug/net6.0/foo.AssemblyInfo.cs");
    assertThat(pdb.document(1).language()).isEqualTo("csharp");
    assertThat(pdb.hasDebugInfo()).isTrue();
  }

  @Test
  void lookupsOfSymbolicTestIntegration() throws IOException {
    PpdbLineTable table = PpdbLineTable.build(pdb("testutils/windows/portable.pdb"));
    int[][] cases = {{7, 10, 81}, {5, 6, 37}, {3, 0, 30}, {2, 0, 25}, {1, 45, 20}};
    for (int[] c : cases) {
      PpdbLineTable.LineInfo info = table.lookup(c[0], c[1]).orElseThrow();
      assertThat(info.line()).as("method %d IL %d", c[0], c[1]).isEqualTo(c[2]);
      assertThat(info.document().name()).isEqualTo(PROGRAM_CS);
      assertThat(info.document().language()).isEqualTo("csharp");
    }
  }

  @Test
  void pdbIdMatchesTheAssemblysDebugId() throws IOException {
    // test_matching_ids: the PE's debug id is the Portable PDB's id
    PortablePdb pdb = pdb("testutils/windows/portable.pdb");
    DotnetImage pe = DotnetImage.parse(read("testutils/windows/integration.dll"));
    assertThat(pe.portablePdbReference().orElseThrow().debugId()).isEqualTo(pdb.debugId());
    assertThat(pe.embeddedPortablePdb()).isEmpty();
  }

  @Test
  void embeddedSources() throws IOException {
    assertThat(pdb("testutils/windows/portable.pdb").embeddedSources()).isEmpty();
    List<EmbeddedSource> items =
        pdb("testutils/windows/Sentry.Samples.Console.Basic.pdb").embeddedSources();
    String root = "C:\\dev\\sentry-dotnet\\samples\\Sentry.Samples.Console.Basic\\";
    assertThat(items)
        .extracting(EmbeddedSource::path)
        .containsExactly(
            root + "Program.cs",
            root + "obj\\release\\net6.0\\Sentry.Samples.Console.Basic.GlobalUsings.g.cs",
            root + "obj\\release\\net6.0\\.NETCoreApp,Version=v6.0.AssemblyAttributes.cs",
            root + "obj\\release\\net6.0\\Sentry.Samples.Console.Basic.AssemblyInfo.cs");
    checkContents(items.get(0), 204, "Program.cs");
    checkContents(items.get(1), 295, "Sentry.Samples.Console.Basic.GlobalUsings.g.cs");
    checkContents(items.get(2), 198, ".NETCoreApp,Version=v6.0.AssemblyAttributes.cs");
    checkContents(items.get(3), 1019, "Sentry.Samples.Console.Basic.AssemblyInfo.cs");
    // test_embedded_sources_with_metadata_maui: 5
    assertThat(pdb("testutils/android/Sentry.Samples.Maui.pdb").embeddedSources()).hasSize(5);
  }

  static void checkContents(EmbeddedSource item, int length, String name) throws IOException {
    assertThat(item.length()).isEqualTo(length);
    assertThat(item.contents()).isEqualTo(read("ppdb/contents/" + name));
  }

  @Test
  void embeddedPortablePdbWithoutSources() throws IOException {
    byte[] pe = read("testutils/windows/Sentry.Samples.Console.Basic-embedded-ppdb.dll");
    DotnetImage image = DotnetImage.parse(pe);
    byte[] embedded = image.embeddedPortablePdb().orElseThrow();
    // test_pe_embedded_ppdb: 10540 bytes, "\0PDB v1.0\0" at 15..25
    assertThat(embedded).hasSize(10540);
    assertThat(new String(embedded, 15, 10, StandardCharsets.US_ASCII)).isEqualTo("\0PDB v1.0\0");
    PortablePdb pdb = PortablePdb.parse(embedded);
    assertThat(pdb.debugId()).isEqualTo(image.portablePdbReference().orElseThrow().debugId());
    assertThat(pdb.hasDebugInfo()).isTrue();
    assertThat(pdb.embeddedSources()).isEmpty();
    // and its identity matches the Console.Basic.dll without it (test_pe_embedded_ppdb)
    assertThat(
            DotnetImage.parse(read("testutils/windows/Sentry.Samples.Console.Basic.dll"))
                .embeddedPortablePdb())
        .isEmpty();
  }

  @Test
  void embeddedPortablePdbWithSources() throws IOException {
    DotnetImage image =
        DotnetImage.parse(
            read("testutils/windows/Sentry.Samples.Console.Basic-embedded-ppdb-with-sources.dll"));
    PortablePdb pdb = PortablePdb.parse(image.embeddedPortablePdb().orElseThrow());
    assertThat(pdb.debugId()).isEqualTo(image.portablePdbReference().orElseThrow().debugId());
    List<EmbeddedSource> items = pdb.embeddedSources();
    assertThat(items).hasSize(5);
    checkContents(items.get(0), 204, "Program.cs");
    checkContents(items.get(1), 295, "Sentry.Samples.Console.Basic.GlobalUsings.g.cs");
    checkContents(items.get(2), 198, ".NETCoreApp,Version=v6.0.AssemblyAttributes.cs");
    checkContents(items.get(3), 610, "Sentry.Attributes.cs");
    checkContents(items.get(4), 1019, "Sentry.Samples.Console.Basic.AssemblyInfo.cs");
  }

  @Test
  void sourceLinks() throws IOException {
    // test_has_source_links
    assertThat(
            pdb("testutils/ppdb-sourcelink-sample/ppdb-sourcelink-sample.pdb")
                .sourceLinks()
                .isEmpty())
        .isFalse();
    assertThat(pdb("testutils/windows/portable.pdb").sourceLinks().isEmpty()).isTrue();
    PortablePdb only = pdb("testutils/windows/source-links-only.pdb");
    assertThat(only.sourceLinks().isEmpty()).isFalse();
    assertThat(only.embeddedSources()).isEmpty();
    // test_source_links: the sample embeds exactly these two generated files
    assertThat(pdb("testutils/ppdb-sourcelink-sample/ppdb-sourcelink-sample.pdb").embeddedSources())
        .extracting(
            s ->
                s.path()
                    .substring(Math.max(s.path().lastIndexOf('/'), s.path().lastIndexOf('\\')) + 1))
        .containsExactly(
            ".NETStandard,Version=v2.0.AssemblyAttributes.cs",
            "ppdb-sourcelink-sample.AssemblyInfo.cs");
  }

  @Test
  void symbolicPdbxFixturesConvert() throws IOException {
    // test_caches.rs test_documents and test_async: the cache converts without error
    for (String name :
        List.of(
            "Documents", "Async", "EmbeddedSource", "MethodBoundaries", "Scopes", "SourceLink")) {
      PortablePdb pdb = pdb("ppdb/" + name + ".pdbx");
      assertThat(PpdbLineTable.build(pdb).size()).as(name).isPositive();
    }
  }

  @Test
  void sourceLinkRulesAsSymbolicResolvesThem() {
    // symbolic-ppdb sourcelinks.rs test_mapping
    SourceLinkMap map =
        SourceLinkMap.parse(
            List.of(
                "{\"documents\": {"
                    + "\"C:\\\\src\\\\*\": \"http://MyDefaultDomain.com/src/*\","
                    + "\"C:\\\\src\\\\fOO\\\\*\": \"http://MyFooDomain.com/src/*\","
                    + "\"C:\\\\src\\\\foo\\\\specific.txt\":"
                    + " \"http://MySpecificFoodDomain.com/src/specific.txt\","
                    + "\"C:\\\\src\\\\bar\\\\*\": \"http://MyBarDomain.com/src/*\"}}",
                "{\"documents\": {\"C:\\\\src\\\\file.txt\": \"https://example.com/file.txt\"}}"));
    assertThat(map.resolve("c:\\other\\path")).isEmpty();
    assertThat(map.resolve("c:\\src\\bAr\\foo\\FiLe.txt"))
        .contains("http://MyBarDomain.com/src/foo/FiLe.txt");
    assertThat(map.resolve("c:\\src\\foo\\FiLe.txt"))
        .contains("http://MyFooDomain.com/src/FiLe.txt");
    assertThat(map.resolve("c:\\src\\foo\\SpEcIfIc.txt"))
        .contains("http://MySpecificFoodDomain.com/src/specific.txt");
    assertThat(map.resolve("c:\\src\\other\\path"))
        .contains("http://MyDefaultDomain.com/src/other/path");
  }
}
