package io.symbolicate.symbols.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The warm-up sample must take the converter through the shapes real dump_syms output has, or the
 * JIT compiles the converter for a tidier file than the first real one (the class's reason).
 */
class WarmupSymFileTest {
  private static final int FUNCS = 2000;
  private static byte[] sample;
  private static String text;

  @BeforeAll
  static void generate() {
    sample = WarmupSymFile.generate(FUNCS, 1);
    text = new String(sample, StandardCharsets.US_ASCII);
  }

  @Test
  void sameSeedSameFileOtherSeedOtherFile() {
    assertThat(WarmupSymFile.generate(FUNCS, 1)).isEqualTo(sample);
    assertThat(WarmupSymFile.generate(FUNCS, 2)).isNotEqualTo(sample);
  }

  @Test
  void convertsCleanlyWithEveryKindOfRecord() throws IOException {
    NativeHeader h =
        NativeSymbols.convert(new ByteArrayInputStream(sample), NativeSymbols.Options.defaults())
            .nativeHeader();
    assertThat(h.corrupt()).isFalse();
    assertThat(h.badLineCount()).isZero();
    assertThat(h.functionCount()).isEqualTo(FUNCS);
    assertThat(h.droppedFunctionCount())
        .as("overlapping FUNCs, dropped as Breakpad does")
        .isPositive();
    assertThat(h.publicCount()).isPositive();
    assertThat(h.inlineOriginCount()).isPositive();
    assertThat(h.inlineRangeCount()).isGreaterThan(10L * FUNCS);
    assertThat(h.lineCount()).isGreaterThan(40L * FUNCS);
    assertThat(h.pageCount()).isGreaterThan(1);
  }

  @Test
  void hasTheRealFilesShapes() {
    long prevFunc = -1;
    int outOfOrder = 0;
    int maxDepth = 0;
    int maxRanges = 0;
    int zeroSizeRanges = 0;
    int longestName = 0;
    int maxLinesPerFunc = 0;
    int lines = 0;
    Map<String, Integer> kinds = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] t = line.split(" ");
      kinds.merge(t[0].matches("[0-9a-f]+") ? "LINE" : t[0], 1, Integer::sum);
      switch (t[0]) {
        case "FUNC" -> {
          long addr = address(t);
          if (addr < prevFunc) {
            outOfOrder++;
          }
          prevFunc = addr;
          longestName = Math.max(longestName, line.length());
          lines = 0;
        }
        case "INLINE" -> {
          maxDepth = Math.max(maxDepth, Integer.parseInt(t[1]));
          int ranges = (t.length - 5) / 2;
          maxRanges = Math.max(maxRanges, ranges);
          for (int r = 0; r < ranges; r++) {
            if (t[6 + 2 * r].equals("0")) {
              zeroSizeRanges++;
            }
          }
        }
        case "PUBLIC", "STACK", "MODULE", "INFO", "FILE", "INLINE_ORIGIN" -> {}
        default -> maxLinesPerFunc = Math.max(maxLinesPerFunc, ++lines);
      }
    }
    assertThat(kinds)
        .containsKeys(
            "MODULE", "INFO", "FILE", "INLINE_ORIGIN", "FUNC", "INLINE", "LINE", "PUBLIC", "STACK");
    assertThat(outOfOrder).as("FUNCs out of address order").isPositive();
    assertThat(maxDepth).as("inline nesting").isGreaterThanOrEqualTo(4);
    assertThat(maxRanges).as("ranges of one INLINE record").isGreaterThanOrEqualTo(40);
    assertThat(zeroSizeRanges).isPositive();
    assertThat(longestName).as("longest FUNC line").isGreaterThan(4096);
    assertThat(maxLinesPerFunc).as("line records of the largest function").isGreaterThan(3000);
    assertThat(text).contains("\nFUNC m ", "\nPUBLIC m ", "\nSTACK CFI INIT ");
  }

  /** The shapes whose absence had ceph-osd's load throw away compiled converter code (session 19). */
  @Test
  void takesTheBranchesARealFileTook() throws IOException {
    long firstFunc = Long.MAX_VALUE;
    long lastFunc = 0;
    long lowestPublic = Long.MAX_VALUE;
    long highestPublic = 0;
    int longestOrigin = 0;
    for (String line : text.split("\n")) {
      String[] t = line.split(" ");
      switch (t[0]) {
        case "FUNC" -> {
          long a = address(t);
          firstFunc = Math.min(firstFunc, a);
          lastFunc = Math.max(lastFunc, a);
        }
        case "PUBLIC" -> {
          long a = address(t);
          lowestPublic = Math.min(lowestPublic, a);
          highestPublic = Math.max(highestPublic, a);
        }
        case "INLINE_ORIGIN" -> longestOrigin = Math.max(longestOrigin, line.length());
        default -> {}
      }
    }
    assertThat(lowestPublic).as("a PUBLIC below the first FUNC").isLessThan(firstFunc);
    assertThat(highestPublic)
        .as("PUBLICs past the last FUNC: the page cutter runs out of FUNCs first")
        .isGreaterThan(lastFunc);
    assertThat(longestOrigin)
        .as("an inline origin name longer than the page writer's 256-byte scratch")
        .isGreaterThan(4096);
    // a page that hardly compresses: its encoded size far beyond the encoder's first guess (a
    // third)
    List<TablePage> pages =
        NativeSymbols.convert(new ByteArrayInputStream(sample), NativeSymbols.Options.defaults())
            .pages();
    double worst = 0;
    for (TablePage p : pages) {
      ByteReader r = new ByteReader(p.bytes(), 0, p.bytes().length);
      r.readByte(); // page version
      r.readVar(); // first key
      long raw = r.readVar();
      worst = Math.max(worst, p.bytes().length / (double) raw);
    }
    assertThat(worst).as("encoded/raw size of the least compressible page").isGreaterThan(0.6);
  }

  /** The address of a FUNC or PUBLIC line's tokens (after the optional "m"). */
  private static long address(String[] t) {
    return Long.parseLong(t[t[1].equals("m") ? 2 : 1], 16);
  }
}
