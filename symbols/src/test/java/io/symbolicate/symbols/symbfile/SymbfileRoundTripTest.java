package io.symbolicate.symbols.symbfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.nativecode.InlineFrame;
import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writer and reader agree record for record; and a Breakpad .sym written as a symbfile
 * ({@link SymToSymbfile}) converts into a table whose lookups equal the .sym table's at every
 * FUNC start, line record start and inline range start and end.
 *
 * <p>Where the two may differ by design (listed in docs/symbfile.md): PUBLIC records have no
 * symbfile form (addresses answered only by a PUBLIC are not compared); a LINE record of line 0
 * is "no line" in a symbfile (compared as equal to no line); a range whose lines name several
 * files keeps the first ({@link SymToSymbfile.Stats#fileConflicts}, asserted 0 on these files).
 */
class SymbfileRoundTripTest {

  @Test
  void writerAndReaderAgree() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (SymbfileWriter w = new SymbfileWriter(b)) {
      w.range(
          0x1000,
          0x40,
          "inline-name",
          "f.c",
          0,
          null,
          0,
          new long[] {0, 8, 8, 0x30},
          new int[] {1, 2, 3, 4});
      w.stringTable(List.of("f.c", "g.h", "callee"));
      w.range(0x1010, 0x10, "callee", "g.h", 7, null, 1, new long[] {0}, new int[] {70});
      w.range(0x1012, 0x2, "deeper", null, 71, "g.h", 2, new long[0], new int[0]);
      w.returnPad(
          0x1013,
          new String[] {"callee", "callee"},
          new String[] {"f.c", "g.h"},
          new int[] {7, 71});
      w.stringTable(List.of("x"));
      w.range(0x0, 0x10, "x", "x", 0, null, 0, new long[] {2}, new int[] {-1});
      w.range(
          0xFFFF_FFFF_FFFF_FFF0L, 0x10, "top", null, 0, null, 0, new long[] {0xF}, new int[] {9});
    }
    List<SymbfileRecord> got =
        SymbfilePeerCasesTest.readAll(new ByteArrayInputStream(b.toByteArray()));
    assertThat(got).hasSize(6);
    assertRange(
        got.get(0),
        0x1000,
        0x40,
        "inline-name",
        "f.c",
        0,
        null,
        0,
        new long[] {0, 8, 8, 0x30},
        new int[] {1, 2, 3, 4});
    assertRange(
        got.get(1), 0x1010, 0x10, "callee", "g.h", 7, "f.c", 1, new long[] {0}, new int[] {70});
    assertRange(got.get(2), 0x1012, 0x2, "deeper", null, 71, "g.h", 2, new long[0], new int[0]);
    SymbfileReturnPad p = (SymbfileReturnPad) got.get(3);
    assertThat(p.elfVa()).isEqualTo(0x1013);
    assertThat(p.functions()).containsExactly("callee", "callee");
    assertThat(p.files()).containsExactly("f.c", "g.h");
    assertThat(p.lines()).containsExactly(7, 71);
    assertRange(got.get(4), 0, 0x10, "x", "x", 0, null, 0, new long[] {2}, new int[] {-1});
    assertRange(
        got.get(5),
        0xFFFF_FFFF_FFFF_FFF0L,
        0x10,
        "top",
        null,
        0,
        null,
        0,
        new long[] {0xF},
        new int[] {9});
  }

  private static void assertRange(
      SymbfileRecord rec,
      long va,
      long len,
      String fn,
      String file,
      int callLine,
      String callFile,
      int depth,
      long[] offs,
      int[] lines) {
    SymbfileRange r = (SymbfileRange) rec;
    assertThat(r.elfVa()).isEqualTo(va);
    assertThat(r.length()).isEqualTo(len);
    assertThat(r.function()).isEqualTo(fn);
    assertThat(r.file()).isEqualTo(file);
    assertThat(r.callLine()).isEqualTo(callLine);
    assertThat(r.callFile()).isEqualTo(callFile);
    assertThat(r.depth()).isEqualTo(depth);
    assertThat(r.lineOffsets()).containsExactly(offs);
    assertThat(r.lineNumbers()).containsExactly(lines);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "google-breakpad/linux_inline/linux_inline.new.sym",
        "mozilla-eliot/extracted/testproj_with_inlines.sym",
        "getsentry-symbolic/macos/crash.inlines.sym",
        "google-breakpad/microdump-arm64/breakpad_unittests.sym",
        "getsentry-symbolic/regression/large_symbol.sym"
      })
  void symWrittenAsSymbfileLooksUpTheSame(String rel) throws Exception {
    Path sym = SharedFixtures.fixtures("native").resolve(rel);
    NativeTable bp = NativeSymbols.convert(sym);
    ByteArrayOutputStream sf = new ByteArrayOutputStream();
    SymToSymbfile.Stats stats;
    try (InputStream in = Files.newInputStream(sym)) {
      stats = SymToSymbfile.convert(in, sf);
    }
    NativeTable st =
        SymbfileConverter.convert(
            new SymbfileConverter.Module(rel, "x86_64", null),
            new ByteArrayInputStream(sf.toByteArray()));
    assertThat(st.nativeHeader().functionCount()).isEqualTo(bp.nativeHeader().functionCount());
    NativeSymbolizer a = NativeSymbolizer.inMemory(bp);
    NativeSymbolizer b = NativeSymbolizer.inMemory(st);
    int compared = 0;
    int fileMismatches = 0;
    for (long addr : addresses(sym)) {
      NativeFrame x = a.lookup(addr);
      if (x == null || x.fromPublic()) {
        continue;
      }
      NativeFrame y = b.lookup(addr);
      String at = rel + " @ 0x" + Long.toHexString(addr);
      assertThat(y).as(at).isNotNull();
      assertThat(y.function()).as(at).isEqualTo(x.function());
      assertThat(y.functionBase()).as(at).isEqualTo(x.functionBase());
      assertThat(line(y.line())).as(at).isEqualTo(line(x.line()));
      fileMismatches += sameFile(x.file(), x.line(), y.file()) ? 0 : 1;
      assertThat(y.inlines()).as(at).hasSameSizeAs(x.inlines());
      for (int i = 0; i < x.inlines().size(); i++) {
        InlineFrame xi = x.inlines().get(i);
        InlineFrame yi = y.inlines().get(i);
        assertThat(yi.function()).as(at + " inline " + i).isEqualTo(xi.function());
        assertThat(yi.functionBase()).as(at + " inline " + i).isEqualTo(xi.functionBase());
        assertThat(line(yi.line())).as(at + " inline " + i).isEqualTo(line(xi.line()));
        fileMismatches += sameFile(xi.file(), xi.line(), yi.file()) ? 0 : 1;
      }
      compared++;
    }
    assertThat(compared).isPositive();
    // a symbfile range has one file: where the .sym's lines in it name others, files differ, in
    // the line segments the writer could not give their own file; each is probed at most twice
    // (at its start, and at the last byte of an inline range ending inside it)
    assertThat(fileMismatches)
        .as("file mismatches")
        .isLessThanOrEqualTo(2 * (int) stats.fileConflicts());
    if (rel.startsWith("google-breakpad/linux_inline") || rel.contains("large_symbol")) {
      assertThat(fileMismatches).isZero();
    }
  }

  /** A line of 0 or none: both mean "no source line". */
  private static int line(Integer line) {
    return line == null ? 0 : line;
  }

  private static boolean sameFile(String want, Integer wantLine, String got) {
    return line(wantLine) == 0 || Objects.equals(want, got);
  }

  /** FUNC starts, line record starts and INLINE range starts and last bytes of a .sym. */
  static List<Long> addresses(Path sym) throws IOException {
    TreeSet<Long> out = new TreeSet<>(Long::compareUnsigned);
    boolean inFunc = false;
    for (String line : Files.readAllLines(sym, StandardCharsets.UTF_8)) {
      String[] p = line.split(" ");
      if (line.startsWith("FUNC ")) {
        inFunc = true;
        out.add(Long.parseUnsignedLong(p[p[1].equals("m") ? 2 : 1], 16));
      } else if (line.startsWith("INLINE ")) {
        int from = (p.length - 1) % 2 == 0 ? 5 : 4;
        for (int i = from; i + 1 < p.length; i += 2) {
          long s = Long.parseUnsignedLong(p[i], 16);
          out.add(s);
          out.add(s + Long.parseUnsignedLong(p[i + 1], 16) - 1);
        }
      } else if (Character.isUpperCase(line.isEmpty() ? 'X' : line.charAt(0))
          && !line.matches("^[0-9A-F]+ .*")) {
        inFunc = false;
      } else if (inFunc && p.length == 4) {
        out.add(Long.parseUnsignedLong(p[0], 16));
      }
    }
    return new ArrayList<>(out);
  }
}
