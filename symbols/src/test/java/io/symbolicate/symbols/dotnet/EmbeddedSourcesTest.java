package io.symbolicate.symbols.dotnet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.symbols.sources.SourceContext;
import io.symbolicate.symbols.sources.SourceFile;
import io.symbolicate.symbols.sources.SourcePage;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.symbols.testing.Snapshots;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sources embedded in a Portable PDB as a source of context: Symbolicator's {@code
 * portable-embedded.pdb} and the context its {@code dotnet_embedded_sources} snapshot expects of
 * its frame (Program.cs line 13, the file's last line: no post_context).
 */
class EmbeddedSourcesTest {
  static final Path SYMBOLICATOR =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolicator");

  @Test
  void theSnapshotsContextComesFromTheEmbeddedSource() throws Exception {
    JsonNode want =
        Snapshots.read(
                SYMBOLICATOR.resolve(
                    "snapshots/integration__symbolication__dotnet_embedded_sources.snap"))
            .get("stacktraces")
            .get(0)
            .get("frames")
            .get(0);
    PortablePdb pdb =
        PortablePdb.parse(
            Files.readAllBytes(
                SYMBOLICATOR.resolve(
                    "symbols/portable-embedded.pdb/B6919861510C48879994943F64F70C37ffffffff/"
                        + "portable-embedded.pdb")));
    List<String> skipped = new ArrayList<>();
    List<SourceFile> files = EmbeddedSources.files(pdb, skipped);
    assertThat(skipped).isEmpty();
    assertThat(files).extracting(SourceFile::path).contains(want.get("abs_path").asText());
    var pages =
        new InMemoryPageSource<SourcePage>(
            SourcePages.pages(files, Long.MAX_VALUE, skipped), SourcePages::decode);
    SourceContext c =
        SourcePages.context(pages, want.get("abs_path").asText(), want.get("lineno").asInt(), 5);
    List<String> pre = new ArrayList<>();
    want.get("pre_context").forEach(n -> pre.add(n.asText()));
    assertThat(c.preContext()).isEqualTo(pre);
    assertThat(c.contextLine()).isEqualTo(want.get("context_line").asText());
    assertThat(c.postContext()).isEmpty();
    assertThat(want.has("post_context")).isFalse();
  }
}
