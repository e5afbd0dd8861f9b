package io.symbolicate.symbols.symbfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.nativecode.CallerAdjust;
import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativePage;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Return pads in the table's pages: with tiny pages, pads before the first FUNC, between FUNCs,
 * inside them and after the last all land on the page a floor lookup reads, survive the page
 * codec, and a table without pads has pages without the pad section.
 */
class ReturnPadPagesTest {

  @Test
  void padsLandOnThePageAFloorLookupReads() throws Exception {
    int funcs = 200;
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    List<Long> padAt = new ArrayList<>();
    try (SymbfileWriter w = new SymbfileWriter(b)) {
      List<String> strings = new ArrayList<>(List.of("caller", "callee", "a.c", "b.h"));
      for (int i = 0; i < funcs; i++) {
        strings.add("f" + i);
      }
      w.stringTable(strings);
      w.returnPad(0x10, new String[] {"caller"}, new String[] {"a.c"}, new int[] {1});
      padAt.add(0x10L);
      for (int i = 0; i < funcs; i++) {
        long start = 0x1000 + 0x100L * i;
        w.range(start, 0x80, "f" + i, "a.c", 0, null, 0, new long[] {0}, new int[] {i + 1});
        w.range(
            start + 0x10,
            0x10,
            "callee",
            "b.h",
            i + 2,
            "a.c",
            1,
            new long[] {0},
            new int[] {500 + i});
        w.returnPad(
            start + 0x14,
            new String[] {"f" + i, "callee"},
            new String[] {"a.c", "b.h"},
            new int[] {i + 2, 600 + i});
        w.returnPad(
            start + 0xC0,
            new String[] {"caller"},
            new String[] {"a.c"},
            new int[] {i}); // between FUNCs
        padAt.add(start + 0x14);
        padAt.add(start + 0xC0);
      }
      w.returnPad(0xFFFF_0000L, new String[] {"caller"}, new String[] {"a.c"}, new int[] {7});
      padAt.add(0xFFFF_0000L);
    }
    List<TablePage> pages = new ArrayList<>();
    NativeHeader header;
    try (SymbfileConverter c =
        new SymbfileConverter(
            new SymbfileConverter.Module("m", "x86_64", null),
            NativeSymbols.Options.defaults().withPageTargetBytes(64))) {
      c.add(new ByteArrayInputStream(b.toByteArray()));
      header = c.finish(pages::add);
    }
    assertThat(pages.size()).isGreaterThan(50);
    NativeTable t = new NativeTable(header, pages);
    NativeSymbolizer s = NativeSymbolizer.inMemory(t);
    int total = 0;
    for (TablePage p : pages) {
      total += NativePage.decode(p.bytes()).returnPadCount();
    }
    assertThat(total).isEqualTo(padAt.size());
    for (long pad : padAt) {
      assertThat(s.returnPad(pad + 1)).as("pad at 0x" + Long.toHexString(pad)).isNotNull();
    }
    NativeFrame f = s.lookup(0x1000 + 0x100L * 77 + 0x15, CallerAdjust.AMD64);
    assertThat(f.function()).isEqualTo("f77");
    assertThat(f.functionBase()).isEqualTo(0x1000 + 0x100L * 77);
    assertThat(f.line()).isEqualTo(79);
    assertThat(f.inlines()).hasSize(1);
    assertThat(f.inlines().get(0).function()).isEqualTo("callee");
    assertThat(f.inlines().get(0).line()).as("the pad's line, not the range's 577").isEqualTo(677);
    assertThat(f.inlines().get(0).functionBase()).isEqualTo(0x1000 + 0x100L * 77 + 0x10);
    assertThat(s.lookup(0x1000 + 0x100L * 77 + 0x14).inlines().get(0).line()).isEqualTo(577);
    NativeFrame outside = s.lookup(0x1000 + 0x100L * 5 + 0xC1, CallerAdjust.AMD64);
    assertThat(outside.function()).isEqualTo("caller");
    assertThat(outside.functionBase())
        .as("no FUNC there: the pad's address")
        .isEqualTo(0x1000 + 0x100L * 5 + 0xC0);
    assertThat(s.returnPad(0x11).line()).isEqualTo(1);
    assertThat(s.returnPad(0xFFFF_0001L).line()).isEqualTo(7);
    assertThat(s.returnPad(0x1016)).as("no pad at 0x1015").isNull();
  }

  @Test
  void aTableWithoutPadsHasNoPadSection() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (SymbfileWriter w = new SymbfileWriter(b)) {
      w.range(0x1000, 0x80, "f", "a.c", 0, null, 0, new long[] {0}, new int[] {1});
    }
    NativeTable t =
        SymbfileConverter.convert(
            new SymbfileConverter.Module("m", "x86_64", null),
            new ByteArrayInputStream(b.toByteArray()));
    NativePage p = NativePage.decode(t.pages().get(0).bytes());
    assertThat(p.returnPadCount()).isZero();
    assertThat(NativeSymbolizer.inMemory(t).lookup(0x1005, CallerAdjust.AMD64).line()).isEqualTo(1);
  }
}
