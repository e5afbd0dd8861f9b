package io.symbolicate.symbols.sources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.symbols.testing.Snapshots;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Symbolicator's source bundle (beside its dSYM, {@code ../shared/fixtures/difs/
 * getsentry-symbolicator/symbols/7f/}) and the context lines its {@code source_candidates}
 * snapshot expects for the frame at {@code example.c:60}.
 */
class SourceBundleTest {
  static final Path SYMBOLICATOR =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolicator");
  static final Path BUNDLE =
      SYMBOLICATOR.resolve("symbols/7f/883fcdc55336d0a809b0150f09500b.src.zip");
  static final String EXAMPLE_C = "/Users/swatinem/Coding/sentry-native/examples/example.c";

  static JsonNode expectedFrame() throws Exception {
    return Snapshots.read(
            SYMBOLICATOR.resolve("snapshots/integration__symbolication__source_candidates.snap"))
        .get("stacktraces")
        .get(0)
        .get("frames")
        .get(0);
  }

  static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void readsTheManifestAndEveryFile() throws Exception {
    SourceBundle b = SourceBundle.read(Files.readAllBytes(BUNDLE));
    assertThat(b.debugId()).isEqualTo("7f883fcd-c553-36d0-a809-b0150f09500b");
    assertThat(b.codeId()).isEqualTo("7f883fcdc55336d0a809b0150f09500b");
    assertThat(b.objectName()).isEqualTo("sentry_example");
    assertThat(b.arch()).isEqualTo("x86_64");
    assertThat(b.files()).hasSize(4);
    assertThat(b.skipped()).isEmpty();
    SourceFile f = b.byPath(EXAMPLE_C);
    assertThat(f.zipPath()).isEqualTo("files" + EXAMPLE_C);
    assertThat(f.type()).isEqualTo("source");
  }

  @Test
  void contextLinesEqualSymbolicatorsSnapshot() throws Exception {
    JsonNode frame = expectedFrame();
    assertThat(frame.get("abs_path").asText()).isEqualTo(EXAMPLE_C);
    int line = frame.get("lineno").asInt();
    SourceBundle b = SourceBundle.read(Files.readAllBytes(BUNDLE));
    SourceContext direct =
        ContextLines.around(ContextLines.split(b.byPath(EXAMPLE_C).text()), line, 5);
    assertThat(direct.preContext()).isEqualTo(strings(frame.get("pre_context")));
    assertThat(direct.contextLine()).isEqualTo(frame.get("context_line").asText());
    assertThat(direct.postContext()).isEqualTo(strings(frame.get("post_context")));

    // the same through stored pages, also when every chunk holds a few lines (context across
    // chunk boundaries)
    List<String> skipped = new ArrayList<>();
    List<TablePage> pages = SourcePages.pages(b.files(), Long.MAX_VALUE, skipped);
    assertThat(skipped).isEmpty();
    PageSource<SourcePage> src = new InMemoryPageSource<>(pages, SourcePages::decode);
    assertThat(SourcePages.context(src, EXAMPLE_C, line, 5)).isEqualTo(direct);
    // a Windows-style spelling of the path finds the same file
    assertThat(SourcePages.context(src, EXAMPLE_C.replace('/', '\\'), line, 5)).isEqualTo(direct);
    assertThat(SourcePages.context(src, EXAMPLE_C, line, 0).preContext()).isEmpty();
    assertThat(SourcePages.context(src, "/nowhere.c", line, 5)).isNull();
    assertThat(SourcePages.context(src, EXAMPLE_C, 100_000, 5)).isNull();
  }

  @Test
  void contextSpansChunks() {
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= 50_000; i++) {
      text.append("line ").append(i).append('\n');
    }
    List<SourceFile> files =
        List.of(new SourceFile("files/a.c", "source", "/src/a.c", null, null, text.toString()));
    List<TablePage> pages = SourcePages.pages(files, Long.MAX_VALUE, new ArrayList<>());
    assertThat(pages.size()).isGreaterThan(3);
    PageSource<SourcePage> src = new InMemoryPageSource<>(pages, SourcePages::decode);
    SourcePage.FileEntry e = SourcePages.directory(src).byPath("/src/a.c");
    int boundary = e.firstLines()[1];
    SourceContext c = SourcePages.context(src, "/src/a.c", boundary, 5);
    assertThat(c.contextLine()).isEqualTo("line " + boundary);
    assertThat(c.preContext()).hasSize(5).first().isEqualTo("line " + (boundary - 5));
    assertThat(c.postContext()).hasSize(5).last().isEqualTo("line " + (boundary + 5));
    assertThat(SourcePages.context(src, "/src/a.c", 1, 5).preContext()).isEmpty();
    assertThat(SourcePages.context(src, "/src/a.c", 50_000, 5).postContext()).isEmpty();
  }

  @Test
  void longLinesAreCutAsSentryCutsThem() {
    String longLine = "x".repeat(151);
    assertThat(ContextLines.trim(longLine)).isEqualTo("x".repeat(140) + " {snip}");
    assertThat(ContextLines.trim("y".repeat(150))).isEqualTo("y".repeat(150));
    assertThat(ContextLines.split("a\r\nb\n")).containsExactly("a", "b");
  }
}
