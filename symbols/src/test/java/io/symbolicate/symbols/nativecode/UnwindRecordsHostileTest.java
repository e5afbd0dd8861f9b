package io.symbolicate.symbols.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Unwind records that do not parse, overlap or span everything, in the native table. */
class UnwindRecordsHostileTest {
  static NativeTable convert(String sym, int pageTarget) throws Exception {
    return NativeSymbols.convert(
        new ByteArrayInputStream(sym.getBytes(StandardCharsets.UTF_8)),
        NativeSymbols.Options.defaults().withPageTargetBytes(pageTarget));
  }

  @Test
  void malformedStackRecordsAreBadLinesAndTheRestLoads() throws Exception {
    String sym =
        "MODULE Linux x86_64 0 m\n"
            + "FUNC 1000 10 0 f\n"
            + "STACK CFI INIT 1000\n"
            + "STACK CFI INIT zz 10 .cfa: $rsp 8 +\n"
            + "STACK CFI\n"
            + "STACK WIN 4 1000 10\n"
            + "STACK WIN 9 1000 10 0 0 0 0 0 0 1 prog\n"
            + "STACK SOMETHING\n"
            + "STACK CFI INIT 1000 10 .cfa: $rsp 8 + .ra: .cfa -8 + ^\n";
    NativeTable t = convert(sym, 1 << 16);
    assertThat(t.nativeHeader().badLineCount()).isEqualTo(6);
    NativeSymbolizer s = NativeSymbolizer.inMemory(t);
    assertThat(s.cfiRuleSets(0x1008)).containsExactly(".cfa: $rsp 8 + .ra: .cfa -8 + ^");
    assertThat(s.lookup(0x1008).function()).isEqualTo("f");
  }

  @Test
  void overlappingInitRecordsKeepTheFirstAndDeltasTheLast() throws Exception {
    String sym =
        "MODULE Linux x86_64 0 m\n"
            + "FUNC 1000 100 0 f\n"
            + "STACK CFI INIT 1000 40 .cfa: $rsp 8 + .ra: .cfa -8 + ^\n"
            + "STACK CFI INIT 1020 40 .cfa: $rsp 99 + .ra: .cfa -8 + ^\n" // overlaps: dropped
            + "STACK CFI 1004 .cfa: $rsp 16 +\n"
            + "STACK CFI 1004 .cfa: $rsp 24 +\n" // same address: the last wins
            + "STACK CFI INIT 1040 10 .cfa: $rsp 8 + .ra: .cfa -8 + ^\n";
    NativeSymbolizer s = NativeSymbolizer.inMemory(convert(sym, 1 << 16));
    assertThat(s.cfiRuleSets(0x1003)).containsExactly(".cfa: $rsp 8 + .ra: .cfa -8 + ^");
    assertThat(s.cfiRuleSets(0x1030))
        .containsExactly(".cfa: $rsp 8 + .ra: .cfa -8 + ^", ".cfa: $rsp 24 +");
    assertThat(s.cfiRuleSets(0x1058)).isEmpty(); // only the dropped record covered it
    assertThat(s.cfiRuleSets(0x1044)).containsExactly(".cfa: $rsp 8 + .ra: .cfa -8 + ^");
  }

  @Test
  void anInitRangeOverEverythingKeepsTheAnswersOfSmallPages() throws Exception {
    StringBuilder sb = new StringBuilder("MODULE Linux x86_64 0 m\n");
    sb.append("STACK CFI INIT 0 fffffffffffffff0 .cfa: $rsp 8 + .ra: .cfa -8 + ^\n");
    for (int i = 0; i < 2000; i++) {
      sb.append(String.format("FUNC %x 10 0 function_%d%n", 0x1000 + 0x10 * i, i));
      sb.append(
          String.format(
              "STACK CFI INIT %x 10 .cfa: $rsp 16 + .ra: .cfa -8 + ^%n", 0x1000 + 0x10 * i));
    }
    NativeTable big = convert(sb.toString(), 1 << 30);
    NativeTable small = convert(sb.toString(), 512);
    // the range over everything forbids every cut: one page, and the same answers
    assertThat(small.pages()).hasSize(1);
    NativeSymbolizer a = NativeSymbolizer.inMemory(big);
    NativeSymbolizer b = NativeSymbolizer.inMemory(small);
    for (long x = 0; x < 0x9000; x += 7) {
      assertThat(b.cfiRuleSets(x)).isEqualTo(a.cfiRuleSets(x));
      assertThat(b.lookup(x)).isEqualTo(a.lookup(x));
    }
    // the first INIT covers everything, so every later one overlaps it and is dropped
    assertThat(a.cfiRuleSets(0x1008)).containsExactly(".cfa: $rsp 8 + .ra: .cfa -8 + ^");
    assertThat(a.lookup(0x1008).function()).isEqualTo("function_0");
    assertThat(a.lookup(0x10)).isNull(); // below the first symbol: no answer
  }
}
