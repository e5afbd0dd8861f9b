package io.symbolicate.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code symbolicator dotnet lookup} and {@code symbolicator sources} end to end, on Sentry
 * symbolic's Portable PDBs (expected lines from symbolic's test_caches.rs test_integration and
 * Symbolicator's dotnet_embedded_sources snapshot).
 */
class DotnetCommandTest {
  static final Path SYMBOLIC =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils");
  static final Path PORTABLE = SYMBOLIC.resolve("windows/portable.pdb");
  static final ObjectMapper JSON = new ObjectMapper();

  static List<JsonNode> lines(String out) throws Exception {
    List<JsonNode> nodes = new ArrayList<>();
    for (String line : out.split("\n")) {
      if (!line.isBlank()) {
        nodes.add(JSON.readTree(line));
      }
    }
    return nodes;
  }

  @Test
  void tokenAndRowLookUpTheSameLines() throws Exception {
    JsCommandTest.Run r =
        JsCommandTest.run("dotnet", "lookup", "--pdb", PORTABLE.toString(), "0x06000007", "10");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode n = lines(r.out()).get(0);
    assertThat(n.get("method_token").asText()).isEqualTo("0x06000007");
    assertThat(n.get("il_offset").asLong()).isEqualTo(10);
    assertThat(n.get("file").asText())
        .isEqualTo("/Users/swatinem/Coding/sentry-dotnet/samples/foo/Program.cs");
    assertThat(n.get("line").asInt()).isEqualTo(81);
    assertThat(n.get("language").asText()).isEqualTo("csharp");
    assertThat(n.get("found").asBoolean()).isTrue();
    // the row alone, and several offsets: one object each (symbolic: method 1 IL 45 line 20)
    JsCommandTest.Run rows =
        JsCommandTest.run("dotnet", "lookup", "--pdb", PORTABLE.toString(), "1", "45", "0x2d");
    assertThat(lines(rows.out())).extracting(x -> x.get("line").asInt()).containsExactly(20, 20);
  }

  @Test
  void anAssemblyEmbeddingItsPdbNamesTheMethod() throws Exception {
    Path dll = SYMBOLIC.resolve("windows/Sentry.Samples.Console.Basic-embedded-ppdb.dll");
    // Symbolicator's dotnet_embedded_sources snapshot: function_id 5, IL 0x2f, Program.cs:13
    JsCommandTest.Run r =
        JsCommandTest.run("dotnet", "lookup", "--pdb", dll.toString(), "5", "0x2f");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode n = lines(r.out()).get(0);
    assertThat(n.get("file").asText()).endsWith("Program.cs");
    assertThat(n.get("line").asInt()).isEqualTo(13);
    assertThat(n.get("method").asText()).isNotBlank();
  }

  @Test
  void aMethodWithoutPointsIsNotFound() throws Exception {
    JsCommandTest.Run r =
        JsCommandTest.run("dotnet", "lookup", "--pdb", PORTABLE.toString(), "0x060fffff", "0");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode n = lines(r.out()).get(0);
    assertThat(n.get("found").asBoolean()).isFalse();
    assertThat(n.has("file")).isFalse();
  }

  @Test
  void badInputIsRefusedWithAReason() {
    JsCommandTest.Run token =
        JsCommandTest.run("dotnet", "lookup", "--pdb", PORTABLE.toString(), "0x02000001", "0");
    assertThat(token.code()).isNotZero();
    assertThat(token.err()).contains("not a MethodDef token");
    JsCommandTest.Run pe =
        JsCommandTest.run(
            "dotnet",
            "lookup",
            "--pdb",
            SYMBOLIC.resolve("windows/integration.dll").toString(),
            "1",
            "0");
    assertThat(pe.code()).isNotZero();
    assertThat(pe.err()).contains("without an embedded Portable PDB").contains("foo.pdb");
    // Symbolicator's dotnet_windows_pdb snapshot: a Windows PDB for a .NET module is unsupported
    JsCommandTest.Run msf =
        JsCommandTest.run(
            "dotnet",
            "lookup",
            "--pdb",
            SYMBOLIC.resolve("windows/crash.pdb").toString(),
            "6",
            "10");
    assertThat(msf.code()).isNotZero();
    assertThat(msf.err()).contains("Windows (MSF) PDB").contains("unsupported");
  }

  @Test
  void sourcesListsEmbeddedFilesAndSourceLinks() throws Exception {
    JsCommandTest.Run r =
        JsCommandTest.run(
            "sources", SYMBOLIC.resolve("windows/Sentry.Samples.Console.Basic.pdb").toString());
    assertThat(r.code()).as(r.err()).isZero();
    List<JsonNode> docs = lines(r.out());
    // symbolic test_embedded_sources: four embedded files, Program.cs first with 204 bytes
    assertThat(docs.stream().filter(d -> d.has("embedded")).count()).isEqualTo(4);
    assertThat(docs.get(0).get("path").asText()).endsWith("\\Program.cs");
    assertThat(docs.get(0).get("embedded").asInt()).isEqualTo(204);
    JsCommandTest.Run links =
        JsCommandTest.run("sources", SYMBOLIC.resolve("windows/source-links-only.pdb").toString());
    assertThat(lines(links.out())).anyMatch(d -> d.has("source_link"));
  }

  @Test
  void sourcesListsASourceBundlesFiles() throws Exception {
    JsCommandTest.Run r =
        JsCommandTest.run(
            "sources",
            SharedFixtures.fixtures("difs")
                .resolve("getsentry-symbolicator/symbols/7f/883fcdc55336d0a809b0150f09500b.src.zip")
                .toString());
    assertThat(r.code()).as(r.err()).isZero();
    List<JsonNode> files = lines(r.out());
    // the bundle's manifest lists four files; example.c has 264 lines (wc -l)
    assertThat(files).hasSize(4);
    JsonNode example =
        files.stream()
            .filter(f -> f.get("path").asText().endsWith("/examples/example.c"))
            .findFirst()
            .orElseThrow();
    assertThat(example.get("zip_path").asText())
        .isEqualTo("files/Users/swatinem/Coding/sentry-native/examples/example.c");
    assertThat(example.get("lines").asInt()).isEqualTo(264);
  }
}
