package io.symbolicate.symbols.pdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The row columns' sort: by RVA, rows at one RVA in the order added (Breakpad's later row). */
class PdbLineRowsTest {
  private static List<String> rows(PdbLineRows r) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < r.count(); i++) {
      out.add(Long.toHexString(r.rva(i)) + ":" + r.line(i));
    }
    return out;
  }

  private static PdbLineRows sample(long base) {
    PdbLineRows r = new PdbLineRows(2); // grows past its first capacity
    r.add(base + 0x20, 4, 1, 0);
    r.add(base + 0x10, 4, 2, 0);
    r.add(base + 0x20, 0, 3, 0);
    r.add(base + 0x00, 8, 4, 0);
    r.add(base + 0x10, 4, 5, 0);
    return r;
  }

  @Test
  void sortsByRvaKeepingTheOrderOfEqualRvas() {
    PdbLineRows r = sample(0x1000);
    r.sortByRva(0);
    assertThat(rows(r)).containsExactly("1000:4", "1010:2", "1010:5", "1020:1", "1020:3");
    assertThat(r.firstAtOrAfter(0x1010)).isEqualTo(1);
    assertThat(r.firstAtOrAfter(0x1011)).isEqualTo(3);
    assertThat(r.firstAtOrAfter(0x2000)).isEqualTo(5);
  }

  @Test
  void rvasPast4GbSortTheSameWay() {
    PdbLineRows r = sample(0x1_0000_1000L); // too wide to pack with the row's place
    r.sortByRva(0);
    assertThat(rows(r))
        .containsExactly("100001000:4", "100001010:2", "100001010:5", "100001020:1", "100001020:3");
  }

  @Test
  void sortsOnlyTheRowsFromItsStart() {
    PdbLineRows r = sample(0x1000);
    r.sortByRva(1);
    assertThat(rows(r)).containsExactly("1020:1", "1000:4", "1010:2", "1010:5", "1020:3");
  }
}
