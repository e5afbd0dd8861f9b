package io.symbolicate.symbols.dotnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TablePage;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The paged table answers every frame as the in-memory line table does (whose answers are
 * symbolic's, Symbolicator's and Cecil's in the other tests), across page boundaries; its pages
 * refuse bytes that lie.
 */
class DotnetTableTest {
  static final List<String> PDBS =
      List.of(
          "testutils/windows/portable.pdb",
          "testutils/windows/Sentry.Samples.Console.Basic.pdb",
          "testutils/android/Sentry.Samples.Maui.pdb",
          "testutils/ppdb-sourcelink-sample/ppdb-sourcelink-sample.pdb",
          "ppdb/Async.pdbx",
          "ppdb/Documents.pdbx",
          "ppdb/MethodBoundaries.pdbx",
          "ppdb/Scopes.pdbx");

  @Test
  void pagesAnswerAsTheLineTable() throws IOException {
    for (String name : PDBS) {
      PortablePdb pdb = PortablePdbTest.pdb(name);
      PpdbLineTable lines = PpdbLineTable.build(pdb);
      SourceLinkMap links = pdb.sourceLinks();
      for (int perPage : new int[] {1, 3, DotnetTable.ROWS_PER_PAGE}) {
        DotnetTable table = DotnetTable.build(pdb, perPage);
        assertThat(DotnetTable.Header.decode(table.header())).isEqualTo(table.parsedHeader());
        assertThat(table.parsedHeader().debugId()).isEqualTo(pdb.debugId());
        assertThat(table.parsedHeader().sourceLink()).isEqualTo(!links.isEmpty());
        PageSource<DotnetPage> pages = table.inMemory();
        for (long key : lines.keys()) {
          int method = (int) (key >>> 32);
          long il = key & 0xffffffffL;
          for (long probe : new long[] {il - 1, il, il + 1, 0x7fffffffL}) {
            for (int m : new int[] {method - 1, method, method + 1}) {
              Optional<PpdbLineTable.LineInfo> want = lines.lookup(m, probe);
              Optional<DotnetPage.Line> got = DotnetTable.lookup(pages, m, probe);
              assertThat(got.isPresent())
                  .as("%s %d/%d", name, m, probe)
                  .isEqualTo(want.isPresent());
              if (want.isPresent()) {
                assertThat(got.get())
                    .isEqualTo(
                        new DotnetPage.Line(
                            want.get().document().name(),
                            want.get().document().language(),
                            want.get().line(),
                            want.get().column(),
                            links.resolve(want.get().document().name()).orElse(null)));
              }
            }
          }
        }
      }
    }
  }

  @Test
  void pagesThatLieAreRefused() throws IOException {
    DotnetTable table = DotnetTable.build(PortablePdbTest.pdb("testutils/windows/portable.pdb"));
    byte[] page = table.pages().get(0).bytes();
    assertThatThrownBy(() -> DotnetPage.decode(Arrays.copyOf(page, page.length - 1)))
        .isInstanceOf(PortablePdbException.class);
    byte[] longer = Arrays.copyOf(page, page.length + 1);
    assertThatThrownBy(() -> DotnetPage.decode(longer)).hasMessageContaining("after its rows");
    byte[] counts = {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f};
    assertThatThrownBy(() -> DotnetPage.decode(counts)).hasMessageContaining("file count");
    assertThatThrownBy(() -> DotnetTable.Header.decode(page)).hasMessageContaining("bad magic");
    // a file name whose length counts its own length byte (ppdb-table's first finding)
    byte[] name = {1, 3, 'a', 'b'};
    assertThatThrownBy(() -> DotnetPage.decode(name))
        .isInstanceOf(PortablePdbException.class)
        .hasMessageContaining("table string of 3 bytes, 2 left");
    SplittableRandom random = new SplittableRandom(46);
    for (int i = 0; i < 2000; i++) {
      byte[] b = page.clone();
      b[random.nextInt(b.length)] = (byte) random.nextInt(256);
      try {
        DotnetPage p = DotnetPage.decode(b);
        p.lookup(1, 0);
      } catch (PortablePdbException expected) {
        assertThat(expected.getMessage()).isNotBlank();
      }
    }
  }

  @Test
  void firstKeysAreThePagesFirstRanges() throws IOException {
    DotnetTable table = DotnetTable.build(PortablePdbTest.pdb("testutils/windows/portable.pdb"), 4);
    for (TablePage p : table.pages()) {
      DotnetPage page = DotnetPage.decode(p.bytes());
      int method = (int) (p.firstKey() >>> 32);
      assertThat(page.lookup(method, p.firstKey() & 0xffffffffL)).isPresent();
    }
  }
}
