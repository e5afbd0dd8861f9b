package io.symbolicate.symbols.nativecode;

import static io.symbolicate.symbols.nativecode.NativeHostileInputTest.convert;
import static io.symbolicate.symbols.nativecode.NativeHostileInputTest.fixture;
import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Breakpad's load and lookup rules on small hand-written files (expected values by hand). */
class NativeSemanticsTest {
  private static final String HEAD = "MODULE Linux x86_64 0123456789ABCDEF0123456789ABCDEF0 m\n";

  private static NativeSymbolizer sym(String body) throws IOException {
    return NativeSymbolizer.inMemory(convert(HEAD + body));
  }

  private static String fn(NativeSymbolizer s, long a) {
    NativeFrame f = s.lookup(a);
    return f == null ? null : f.function();
  }

  @Test
  void overlappingFunctionsFirstOneWinsAndUnsortedInputWorks() throws IOException {
    NativeSymbolizer s =
        sym(
            "FUNC 3000 100 0 late\nFUNC 1000 100 0 a\n"
                + "FUNC 1080 100 0 overlaps_a\nFUNC 2000 0 0 zero_size\nFUNC 2f80 100 0 overlaps_late\n"
                + "PUBLIC 1200 0 p\n");
    assertThat(fn(s, 0x1090)).isEqualTo("a");
    assertThat(fn(s, 0x1150)).isNull(); // overlaps_a was dropped; nearest FUNC a ended
    assertThat(fn(s, 0x1250)).isEqualTo("p");
    assertThat(fn(s, 0x2000)).isEqualTo("p"); // zero-size FUNC is not stored
    assertThat(fn(s, 0x2fa0)).isEqualTo("p"); // overlaps_late dropped
    assertThat(fn(s, 0x3050)).isEqualTo("late");
    assertThat(fn(s, 0x3100)).isNull();
  }

  @Test
  void randomOutOfOrderFunctionsKeepTheFirstOfEveryOverlap() throws IOException {
    // FUNCs in random order, many overlapping, near 0 and near 2^64 (unsigned order, ranges that
    // wrap are dropped), checked against a brute-force reading of Breakpad's rule: a FUNC is
    // stored unless it overlaps one stored before it
    Random rnd = new Random(7);
    int n = 3000;
    long[] start = new long[n];
    long[] size = new long[n];
    List<long[]> kept = new ArrayList<>(); // {start, high, index}
    long dropped = 0;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      long base = rnd.nextBoolean() ? 0x1000L : -0x40000L; // 0xfffffffffffc0000
      start[i] = base + rnd.nextInt(0x40000);
      size[i] = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(0x200);
      long high = start[i] + size[i] - 1;
      boolean ok = size[i] != 0 && Unsigned.le(start[i], high);
      for (int k = 0; ok && k < kept.size(); k++) {
        ok = Unsigned.lt(high, kept.get(k)[0]) || Unsigned.lt(kept.get(k)[1], start[i]);
      }
      if (ok) {
        kept.add(new long[] {start[i], high, i});
      } else {
        dropped++;
      }
      sb.append("FUNC ")
          .append(Long.toHexString(start[i]))
          .append(' ')
          .append(Long.toHexString(size[i]))
          .append(" 0 f")
          .append(i)
          .append('\n');
    }
    NativeTable t = convert(HEAD + sb);
    assertThat(t.nativeHeader().droppedFunctionCount()).isEqualTo(dropped);
    assertThat(t.nativeHeader().functionCount()).isEqualTo(kept.size());
    NativeSymbolizer s = NativeSymbolizer.inMemory(t);
    for (long[] k : kept) {
      assertThat(fn(s, k[0])).isEqualTo("f" + k[2]);
      assertThat(fn(s, k[1])).isEqualTo("f" + k[2]);
    }
    for (int i = 0; i < n; i++) {
      String covering = null;
      for (long[] k : kept) {
        if (Unsigned.le(k[0], start[i]) && Unsigned.le(start[i], k[1])) {
          covering = "f" + k[2];
        }
      }
      assertThat(fn(s, start[i])).as("FUNC %d at %x", i, start[i]).isEqualTo(covering);
    }
  }

  @Test
  void publicInsideAFunctionShowsAfterTheFunctionEnds() throws IOException {
    NativeSymbolizer s = sym("FUNC 1000 100 0 f\nPUBLIC 1050 0 inside\nPUBLIC 1000 0 same_start\n");
    assertThat(fn(s, 0x1060)).isEqualTo("f");
    // after f ends: nearest PUBLIC (1050) lies above f's start (1000), so it applies
    assertThat(fn(s, 0x1200)).isEqualTo("inside");
    NativeSymbolizer t = sym("FUNC 1000 100 0 f\nPUBLIC 1000 0 same_start\n");
    assertThat(fn(t, 0x1200)).isNull(); // a PUBLIC at the FUNC's start is not above it
  }

  @Test
  void firstPublicAtAnAddressWinsAndAddressZeroIsIgnored() throws IOException {
    NativeSymbolizer s = sym("PUBLIC 0 0 zero\nPUBLIC 500 0 first\nPUBLIC 500 0 second\n");
    assertThat(fn(s, 0x10)).isNull();
    assertThat(fn(s, 0x600)).isEqualTo("first");
  }

  @Test
  void linesFirstOneWinsUnsortedAndOutsideTheFunction() throws IOException {
    NativeSymbolizer s =
        sym(
            "FILE 1 a.c\nFILE 2 b.c\nFUNC 1000 40 0 f\n1020 10 20 1\n"
                + "1000 10 10 2\n1008 10 99 1\n1030 0 98 1\n0f00 10 97 1\n1010 10 0 2\n");
    NativeFrame a = s.lookup(0x1004);
    assertThat(a.file()).isEqualTo("b.c");
    assertThat(a.line()).isEqualTo(10);
    assertThat(a.lineBase()).isEqualTo(0x1000L);
    assertThat(s.lookup(0x100c).line()).isEqualTo(10); // 1008 overlapped 1000: dropped
    NativeFrame zero = s.lookup(0x1014);
    assertThat(zero.line()).isEqualTo(0); // line 0 is valid (block helpers)
    assertThat(zero.file()).isEqualTo("b.c");
    assertThat(s.lookup(0x1025).line()).isEqualTo(20);
    NativeFrame none = s.lookup(0x1034);
    assertThat(none.function()).isEqualTo("f");
    assertThat(none.line()).isNull();
    assertThat(none.file()).isNull();
    assertThat(s.lookup(0xf05)).isNull(); // a line record outside its FUNC is unreachable
  }

  @Test
  void unknownFileIdKeepsTheLineWithoutAFile() throws IOException {
    NativeFrame f = sym("FUNC 1000 10 0 f\n1000 10 5 7\n").lookup(0x1000);
    assertThat(f.line()).isEqualTo(5);
    assertThat(f.file()).isNull();
  }

  @Test
  void oldInlineFormatKeepsTheLineRecordFile() throws IOException {
    NativeSymbolizer s =
        sym(
            "FILE 0 main.c\nFILE 1 inl.h\nINLINE_ORIGIN 0 1 helper\n"
                + "INLINE_ORIGIN 1 1 inner helper\n"
                + "FUNC 1000 100 0 outer\nINLINE 0 12 0 1010 20\nINLINE 1 30 1 1018 8\n"
                + "1000 10 10 0\n1010 8 40 1\n1018 8 41 1\n1020 20 50 1\n");
    NativeFrame f = s.lookup(0x101a);
    assertThat(f.function()).isEqualTo("outer");
    assertThat(f.inlines())
        .extracting(InlineFrame::function)
        .containsExactly("inner helper", "helper");
    // innermost gets the line record; each outer frame the call-site line of the inner one
    assertThat(f.inlines().get(0).line()).isEqualTo(41);
    assertThat(f.inlines().get(1).line()).isEqualTo(30);
    assertThat(f.line()).isEqualTo(12);
    // no call-site file in the old format: every frame keeps the line record's file
    assertThat(f.inlines()).extracting(InlineFrame::file).containsOnly("inl.h");
    assertThat(f.file()).isEqualTo("inl.h");
    assertThat(f.inlines().get(0).functionBase()).isEqualTo(0x1018L);
    assertThat(f.inlines().get(1).functionBase()).isEqualTo(0x1010L);
    NativeFrame g = s.lookup(0x1012);
    assertThat(g.inlines()).extracting(InlineFrame::function).containsExactly("helper");
  }

  @Test
  void repeatedLookupsInOneSegmentKeepTheirOwnAddress() throws IOException {
    String body =
        "FILE 0 main.c\nFILE 1 inl.h\nINLINE_ORIGIN 0 1 helper\n"
            + "INLINE_ORIGIN 1 1 inner helper\n"
            + "FUNC 1000 100 0 outer\nINLINE 0 12 0 1010 20\nINLINE 1 30 1 1018 8\n"
            + "1000 10 10 0\n1010 8 40 1\n1018 8 41 1\n1020 20 50 1\nPUBLIC 2000 0 pub\n";
    NativeSymbolizer s = sym(body);
    // [1018, 1020) is one segment: the answer is built once, each lookup keeps its address
    long[] order = {0x101a, 0x1018, 0x101f, 0x101a, 0x2004, 0x2000, 0x2004};
    List<NativeFrame> first = new ArrayList<>();
    for (long a : order) {
      NativeFrame f = s.lookup(a);
      assertThat(f.address()).isEqualTo(a);
      assertThat(f.functionOffset()).isEqualTo(a - f.functionBase());
      first.add(f);
    }
    assertThat(first.get(0).function()).isEqualTo("outer");
    assertThat(first.get(1).line()).isEqualTo(12);
    assertThat(first.get(2).lineBase()).isEqualTo(0x1018L);
    assertThat(first.get(2).inlines())
        .extracting(InlineFrame::function)
        .containsExactly("inner helper", "helper");
    assertThat(first.get(4).function()).isEqualTo("pub");
    assertThat(first.get(5).fromPublic()).isTrue();
    assertThat(first.get(6).address()).isEqualTo(0x2004L);
    // a fresh symbolizer asked in the reverse order gives equal answers
    NativeSymbolizer t = sym(body);
    for (int i = order.length - 1; i >= 0; i--) {
      assertThat(t.lookup(order[i])).isEqualTo(first.get(i));
    }
  }

  @Test
  void inlineWithUnknownOriginAndSkippedNestLevel() throws IOException {
    NativeSymbolizer s =
        sym(
            "FILE 0 a.c\nFUNC 1000 100 0 f\nINLINE 0 5 0 9 1000 20\n"
                + "INLINE 2 6 0 9 1000 10\n1000 100 1 0\n");
    NativeFrame f = s.lookup(0x1004);
    // origin 9 is not defined; a level-2 INLINE directly under level 0 is ignored
    assertThat(f.inlines()).extracting(InlineFrame::function).containsExactly("<name omitted>");
  }

  @Test
  void discontiguousInlineRanges() throws IOException {
    NativeSymbolizer s =
        sym(
            "FILE 0 a.c\nINLINE_ORIGIN 0 g\nFUNC 1000 100 0 f\n"
                + "INLINE 0 7 0 0 1010 10 1040 10\n1000 100 3 0\n");
    assertThat(s.lookup(0x1044).inlines().get(0).functionBase()).isEqualTo(0x1040L);
    assertThat(s.lookup(0x1014).inlines().get(0).functionBase()).isEqualTo(0x1010L);
    assertThat(s.lookup(0x1024).inlines()).isEmpty();
  }

  @Test
  void callerAdjustmentPerArchitecture() throws IOException {
    NativeSymbolizer s = sym("FUNC 1000 10 0 a\nFUNC 1010 10 0 b\n");
    assertThat(s.lookup(0x1010, CallerAdjust.NONE).function()).isEqualTo("b");
    assertThat(s.lookup(0x1010, CallerAdjust.forArch("amd64")).function()).isEqualTo("a");
    assertThat(s.lookup(0x1011, CallerAdjust.forArch("x86")).function()).isEqualTo("b");
    assertThat(s.lookup(0x1011, CallerAdjust.forArch("arm")).function()).isEqualTo("a");
    assertThat(s.lookup(0x1013, CallerAdjust.forArch("aarch64")).function()).isEqualTo("a");
    assertThat(s.lookup(0x1014, CallerAdjust.forArch("arm64")).function()).isEqualTo("b");
    // a return address below the adjustment stays as it is: wrapped, it named the last symbol
    assertThat(CallerAdjust.forArch("arm64").apply(2)).isEqualTo(2);
    assertThat(CallerAdjust.forArch("amd64").apply(0)).isZero();
    assertThat(CallerAdjust.forArch("amd64").apply(1)).isZero();
    assertThat(CallerAdjust.forArch("amd64").apply(-1L))
        .as("unsigned: the top of the space")
        .isEqualTo(-2L);
    NativeSymbolizer last = sym("PUBLIC 10 0 first\nPUBLIC ffff0000 0 last_public\n");
    assertThat(last.lookup(0, CallerAdjust.forArch("amd64")))
        .satisfiesAnyOf(f -> assertThat(f).isNull(), f -> assertThat(f.function()).isNull());
  }

  @Test
  void headerCarriesModuleIdentity() throws IOException {
    NativeTable t =
        convert(new String(fixture("getsentry-symbolic/xul.sym"), StandardCharsets.UTF_8));
    NativeHeader h = NativeHeader.decode(t.header());
    assertThat(h).isEqualTo(t.nativeHeader());
    assertThat(h.os()).isEqualTo("windows");
    assertThat(h.arch()).isEqualTo("x86_64");
    assertThat(h.moduleName()).isEqualTo("xul.pdb");
    assertThat(h.codeId()).isEqualTo("5E8F310E69D0000");
    assertThat(h.codeFile()).isEqualTo("xul.dll");
    assertThat(h.displayName()).isEqualTo("xul.dll");
    assertThat(h.functionCount()).isEqualTo(1);
    assertThat(t.kind()).isEqualTo(TableKind.NATIVE);
    // the MANIFEST's debug id example (symbolic): GUID as UUID, age 1 appended
    NativeHeader g =
        new NativeHeader(
            1,
            "",
            "",
            "3249D99D0C4049318610F4E4FB0B69361",
            "",
            "",
            "",
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            List.of());
    assertThat(g.normalizedDebugId()).isEqualTo("3249d99d-0c40-4931-8610-f4e4fb0b6936-1");
  }

  /** Tiny pages and stored pages must answer exactly like one big deflated page. */
  @Test
  void pagingAndCodecDoNotChangeAnswers() throws IOException {
    for (String f :
        new String[] {
          "google-breakpad/microdump-arm64/breakpad_unittests.sym",
          "getsentry-symbolic/macos/crash.inlines.sym",
          "google-breakpad/module1.out"
        }) {
      byte[] data = fixture(f);
      NativeTable one =
          convert(data, NativeSymbols.Options.defaults().withPageTargetBytes(1 << 30));
      NativeTable many =
          convert(
              data,
              NativeSymbols.Options.defaults().withPageTargetBytes(f.endsWith(".out") ? 1 : 300));
      NativeTable stored =
          convert(
              data,
              NativeSymbols.Options.defaults()
                  .withPageTargetBytes(2000)
                  .withCodec(PageCompression.STORED));
      assertThat(one.pages()).hasSize(1);
      assertThat(many.pages().size()).as(f).isGreaterThan(f.endsWith(".out") ? 2 : 50);
      long prev = Long.MIN_VALUE;
      for (TablePage p : many.pages()) {
        assertThat(NativePage.decode(p.bytes()).firstKey()).isEqualTo(p.firstKey());
        assertThat(p.firstKey()).isGreaterThan(prev);
        prev = p.firstKey();
      }
      NativeSymbolizer a = NativeSymbolizer.inMemory(one);
      NativeSymbolizer b = NativeSymbolizer.inMemory(many);
      NativeSymbolizer c = NativeSymbolizer.inMemory(stored);
      NativeSymbolizer z =
          NativeSymbolizer.inMemory(
              convert(
                  data,
                  NativeSymbols.Options.defaults()
                      .withPageTargetBytes(5000)
                      .withCodec(PageCompression.DEFLATE)));
      Random r = new Random(7);
      List<Long> probes = new ArrayList<>();
      long lo = one.pages().get(0).firstKey();
      for (int i = 0; i < 20000; i++) {
        probes.add(lo - 16 + (long) r.nextInt(0x80000));
      }
      for (TablePage p : many.pages()) {
        probes.add(p.firstKey());
        probes.add(p.firstKey() - 1);
        probes.add(p.firstKey() + 1);
      }
      probes.add(0L);
      probes.add(-1L); // 0xffffffffffffffff: above every page
      // the bucketed page index finds the same page as the shared binary-search source
      NativePageIndex index = new NativePageIndex(many.pages());
      InMemoryPageSource<NativePage> plain =
          new InMemoryPageSource<>(many.pages(), NativePage::decode);
      for (long x : probes) {
        NativePage want = plain.floor(x);
        NativePage got = index.floor(x);
        assertThat(got == null ? null : got.firstKey())
            .as(f + " floor @" + Long.toHexString(x))
            .isEqualTo(want == null ? null : want.firstKey());
      }
      int found = 0;
      for (long x : probes) {
        NativeFrame fa = a.lookup(x);
        assertThat(b.lookup(x)).as(f + " @" + Long.toHexString(x)).isEqualTo(fa);
        assertThat(c.lookup(x)).as(f + " @" + Long.toHexString(x)).isEqualTo(fa);
        assertThat(z.lookup(x)).as(f + " @" + Long.toHexString(x)).isEqualTo(fa);
        found += fa == null ? 0 : 1;
      }
      assertThat(found).isGreaterThan(100);
    }
  }

  /** Pages decoded without the answer memo answer exactly like memoising ones, and weigh less. */
  @Test
  void pagesWithoutTheAnswerMemoGiveTheSameAnswers() throws IOException {
    for (String f :
        new String[] {
          "google-breakpad/microdump-arm64/breakpad_unittests.sym",
          "getsentry-symbolic/macos/crash.inlines.sym",
          "google-breakpad/module1.out"
        }) {
      NativeTable t =
          convert(fixture(f), NativeSymbols.Options.defaults().withPageTargetBytes(3000));
      NativeSymbolizer memo =
          new NativeSymbolizer(
              t.nativeHeader(),
              new InMemoryPageSource<>(t.pages(), b -> NativePage.decode(b, true)));
      NativeSymbolizer lean =
          new NativeSymbolizer(
              t.nativeHeader(),
              new InMemoryPageSource<>(t.pages(), b -> NativePage.decode(b, false)));
      Random r = new Random(11);
      long lo = t.pages().get(0).firstKey();
      int found = 0;
      for (int pass = 0; pass < 2; pass++) { // the second pass reads memoised answers
        r.setSeed(11);
        for (int i = 0; i < 20000; i++) {
          long x = lo - 16 + (long) r.nextInt(0x80000);
          NativeFrame want = memo.lookup(x);
          assertThat(lean.lookup(x)).as(f + " @" + Long.toHexString(x)).isEqualTo(want);
          found += want == null ? 0 : 1;
        }
      }
      assertThat(found).as(f).isGreaterThan(100);
      long kept = 0;
      for (TablePage p : t.pages()) {
        NativePage withMemo = NativePage.decode(p.bytes(), true);
        NativePage without = NativePage.decode(p.bytes(), false);
        // lighter but for what consumers may keep with its names (a memoising page's answers
        // carry Strings, with nothing kept)
        assertThat(withMemo.keptBytes()).isZero();
        kept += without.keptBytes();
        assertThat(without.heapBytes() - without.keptBytes())
            .isPositive()
            .isLessThan(withMemo.heapBytes());
        assertThat(without.heapBytes()).isGreaterThan(p.bytes().length);
      }
      assertThat(kept).as(f).isPositive(); // (a page of unwind records alone has no names)
    }
  }

  /** A batch answers exactly like lookups one by one, over mixed pages (lean, memoising, none). */
  @Test
  void batchedLookupsGiveTheSameAnswers() throws IOException {
    List<NativeSymbolizer> lean = new ArrayList<>();
    List<NativeSymbolizer> memo = new ArrayList<>();
    List<Long> lows = new ArrayList<>();
    for (String f :
        new String[] {
          "google-breakpad/microdump-arm64/breakpad_unittests.sym",
          "getsentry-symbolic/macos/crash.inlines.sym",
          "google-breakpad/module1.out"
        }) {
      NativeTable t =
          convert(fixture(f), NativeSymbols.Options.defaults().withPageTargetBytes(3000));
      lean.add(
          new NativeSymbolizer(
              t.nativeHeader(),
              new InMemoryPageSource<>(t.pages(), b -> NativePage.decode(b, false))));
      memo.add(
          new NativeSymbolizer(
              t.nativeHeader(),
              new InMemoryPageSource<>(t.pages(), b -> NativePage.decode(b, true))));
      lows.add(t.pages().get(0).firstKey());
    }
    Random r = new Random(5);
    int found = 0;
    int inlined = 0;
    for (int batch = 0; batch < 2000; batch++) {
      int n = r.nextInt(40);
      NativePage[] pages = new NativePage[n];
      long[] addresses = new long[n];
      NativeFrame[] want = new NativeFrame[n];
      for (int k = 0; k < n; k++) {
        int m = r.nextInt(lows.size());
        NativeSymbolizer s = (r.nextBoolean() ? lean : memo).get(m);
        long x = lows.get(m) - 16 + (long) r.nextInt(0x80000);
        addresses[k] = x;
        pages[k] = r.nextInt(20) == 0 ? null : s.page(x);
        want[k] = pages[k] == null ? null : s.lookup(x);
      }
      List<String> got = new ArrayList<>();
      NativePage.lookupAll(
          pages,
          addresses,
          n,
          new NativePage.AnswerSink() {
            @Override
            public void nothing(int k) {
              got.add(k + " nothing");
            }

            @Override
            public void inlined(
                int k, CharSequence function, long functionBase, CharSequence file, int line) {
              got.add(k + " inlined " + function + " " + functionBase + " " + file + " " + line);
            }

            @Override
            public void frame(
                int k, CharSequence function, long functionBase, CharSequence file, int line) {
              got.add(k + " frame " + function + " " + functionBase + " " + file + " " + line);
            }
          },
          new int[n + 3]);
      List<String> expected = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        NativeFrame f = want[k];
        if (f == null || f.function() == null) {
          expected.add(k + " nothing");
          continue;
        }
        found++;
        for (InlineFrame in : f.inlines()) {
          inlined++;
          expected.add(
              k
                  + " inlined "
                  + in.function()
                  + " "
                  + in.functionBase()
                  + " "
                  + in.file()
                  + " "
                  + (in.line() == null ? NativePage.AnswerSink.NO_LINE : in.line()));
        }
        expected.add(
            k
                + " frame "
                + f.function()
                + " "
                + f.functionBase()
                + " "
                + f.file()
                + " "
                + (f.line() == null ? NativePage.AnswerSink.NO_LINE : f.line()));
      }
      assertThat(got).as("batch %d at %s", batch, Arrays.toString(addresses)).isEqualTo(expected);
    }
    assertThat(found).isGreaterThan(1000);
    assertThat(inlined).isGreaterThan(100);
  }
}
