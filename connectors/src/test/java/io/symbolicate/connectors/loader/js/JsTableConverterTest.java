package io.symbolicate.connectors.loader.js;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.js.JsTableBuilder;
import io.symbolicate.symbols.js.SourceMap;
import io.symbolicate.symbols.js.SourceMapParser;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.symbols.testing.JsSnapshotCases;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The loader's sourcemap converter: with the minified file as companion, the table has its scopes. */
class JsTableConverterTest {
  private final JsTableConverter converter = new JsTableConverter();

  private static List<String> pages(CompactTable t) {
    return t.pages().stream().map(TablePage::bytes).map(Arrays::toString).toList();
  }

  @Test
  void theMinifiedCompanionAddsFunctionScopesToTheTable() throws Exception {
    var c = JsSnapshotCases.caseById("symbolicator-sourcemap-expansion");
    byte[] map = Files.readAllBytes(c.maps().get(0));
    byte[] minified = Files.readAllBytes(c.minified().get(0));
    SourceMap parsed = new SourceMapParser().parse(map);

    CompactTable alone = converter.convert(new ByteArrayInputStream(map), 1 << 20, null, null);
    CompactTable withScopes =
        converter.convert(new ByteArrayInputStream(map), 1 << 20, null, minified);
    assertThat(pages(alone)).isEqualTo(pages(new JsTableBuilder().build(parsed)));
    assertThat(pages(withScopes))
        .isEqualTo(
            pages(new JsTableBuilder().build(parsed, Files.readString(c.minified().get(0)))));
    assertThat(pages(withScopes)).isNotEqualTo(pages(alone));

    // a companion that is not JavaScript at all costs the scopes, never the map
    byte[] junk = new byte[4096];
    new Random(7).nextBytes(junk);
    CompactTable fromJunk = converter.convert(new ByteArrayInputStream(map), 1 << 20, null, junk);
    assertThat(fromJunk.pages()).isNotEmpty();
  }
}
