package io.symbolicate.symbols.nativecode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inputs a symbol server or an attacker can hand us: each must load or fail with a reason. */
class NativeHostileInputTest {
  private static final String HEAD = "MODULE Linux x86_64 0123456789ABCDEF0123456789ABCDEF0 m\n";

  static NativeTable convert(String text) throws IOException {
    return convert(text.getBytes(StandardCharsets.ISO_8859_1), NativeSymbols.Options.defaults());
  }

  static NativeTable convert(byte[] bytes, NativeSymbols.Options o) throws IOException {
    return NativeSymbols.convert(new ByteArrayInputStream(bytes), o);
  }

  static byte[] fixture(String rel) throws IOException {
    return Files.readAllBytes(SharedFixtures.fixtures("native").resolve(rel));
  }

  static byte[] gzip(byte[] b) throws IOException {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
      gz.write(b);
    }
    return bos.toByteArray();
  }

  @Test
  void emptyHtmlAndBinaryAreNotSymbolFiles() {
    assertThatThrownBy(() -> convert(""))
        .isInstanceOf(SymFormatException.class)
        .hasMessageContaining("empty input");
    assertThatThrownBy(() -> convert("\n\n\n"))
        .isInstanceOf(SymFormatException.class)
        .hasMessageContaining("no MODULE record");
    assertThatThrownBy(() -> convert("<!DOCTYPE html>\n<html><body>404 Not Found</body></html>\n"))
        .isInstanceOf(SymFormatException.class)
        .hasMessageContaining("first line is not a MODULE record")
        .hasMessageContaining("<!DOCTYPE html>");
    byte[] junk = new byte[100_000];
    new Random(42).nextBytes(junk);
    junk[0] = 'x'; // not the gzip magic
    assertThatThrownBy(() -> convert(junk, NativeSymbols.Options.defaults()))
        .isInstanceOf(SymFormatException.class)
        .hasMessageContaining("not a Breakpad symbol file");
  }

  /**
   * An address 2^63 or more past a page's first key is negative as a signed difference: it
   * must find what any address beyond the page finds, not index the page's buckets with it.
   */
  @Test
  void addressesNearTheTopOfTheAddressSpaceFindWhatLiesBeyondThePage() throws IOException {
    for (String tail : new String[] {"", "PUBLIC 3000 0 last_public\n"}) {
      NativeTable t = convert(HEAD + "FILE 0 a.c\nFUNC 2000 10 0 ok\n2000 10 5 0\n" + tail);
      List<Function<byte[], NativePage>> decoders =
          List.of(b -> NativePage.decode(b, false), b -> NativePage.decode(b, true));
      for (Function<byte[], NativePage> decoder : decoders) {
        NativeSymbolizer s =
            new NativeSymbolizer(t.nativeHeader(), new InMemoryPageSource<>(t.pages(), decoder));
        NativeFrame past =
            s.lookup(0x2000L + (1L << 31)); // beyond the page, as an int would not hold it
        for (long far :
            new long[] {-1L, 0xfffffffffffff000L, Long.MIN_VALUE, Long.MIN_VALUE + 0x2000L}) {
          String at = tail + " @" + Long.toHexString(far);
          assertThat(answer(s.lookup(far))).as(at).isEqualTo(answer(past));
          List<String> got = new ArrayList<>();
          NativePage.lookupAll(
              new NativePage[] {s.page(far)},
              new long[] {far},
              1,
              new NativePage.AnswerSink() {
                @Override
                public void nothing(int k) {
                  got.add("nothing");
                }

                @Override
                public void inlined(
                    int k, CharSequence function, long functionBase, CharSequence file, int line) {
                  got.add("inlined " + function);
                }

                @Override
                public void frame(
                    int k, CharSequence function, long functionBase, CharSequence file, int line) {
                  got.add("frame " + function);
                }
              },
              new int[1]);
          assertThat(got)
              .as(at)
              .containsExactly(past == null ? "nothing" : "frame " + past.function());
        }
        assertThat(s.lookup(0x2004).function()).isEqualTo("ok");
      }
    }
  }

  /** What a lookup found, without the address it was asked for. */
  private static String answer(NativeFrame f) {
    return f == null
        ? "nothing"
        : f.function() + " @" + f.functionBase() + " " + f.file() + ":" + f.line();
  }

  @Test
  void malformedLinesLoadButFlagCorruptAndAreCounted() throws IOException {
    NativeTable t =
        convert(
            HEAD
                + "FILE 0 a.c\nFUNC 1000 10 0 f\n1000 10 7 0\n"
                + "FUNC zz 10 0 bad\n"
                + "garbage line\n"
                + "PUBLIC 2000\n"
                + "FUNC 3000 10 0 g\n");
    NativeHeader h = t.nativeHeader();
    assertThat(h.corrupt()).isTrue();
    // the FUNC that did not parse leaves no current function, so "garbage line" is an orphan too
    assertThat(h.badLineCount()).isEqualTo(3);
    assertThat(h.badLineSamples()).hasSize(3);
    assertThat(h.badLineSamples().get(0)).startsWith("line 5:");
    NativeSymbolizer s = NativeSymbolizer.inMemory(t);
    assertThat(s.lookup(0x1004).function()).isEqualTo("f");
    assertThat(s.lookup(0x1004).line()).isEqualTo(7);
    assertThat(s.lookup(0x3004).function()).isEqualTo("g");
  }

  @Test
  void truncatedFileLoadsWhatIsComplete() throws IOException {
    byte[] full = fixture("google-breakpad/linux_inline/linux_inline.new.sym");
    String text = new String(full, StandardCharsets.US_ASCII);
    int cut = text.indexOf("15b91 6 9 0") + "15b91 6".length(); // mid line record
    NativeTable t = convert(Arrays.copyOf(full, cut), NativeSymbols.Options.defaults());
    assertThat(t.nativeHeader().corrupt()).isTrue();
    assertThat(t.nativeHeader().badLineCount()).isEqualTo(1);
    NativeFrame f = NativeSymbolizer.inMemory(t).lookup(0x15b8d);
    assertThat(f.function()).isEqualTo("main");
    assertThat(f.inlines())
        .extracting(InlineFrame::function)
        .containsExactly("func()", "bar()", "foo()");
  }

  @Test
  void truncatedGzipIsAClearError() throws IOException {
    byte[] gz = gzip(fixture("google-breakpad/microdump-arm64/breakpad_unittests.sym"));
    byte[] cut = Arrays.copyOf(gz, gz.length / 2);
    assertThatThrownBy(() -> convert(cut, NativeSymbols.Options.defaults()))
        .isInstanceOf(SymFormatException.class)
        .hasMessageContaining("truncated or corrupt");
  }

  @Test
  void gzipInputConvertsLikePlainInput() throws IOException {
    byte[] plain = fixture("google-breakpad/microdump-arm64/breakpad_unittests.sym");
    NativeTable a = convert(plain, NativeSymbols.Options.defaults());
    NativeTable b = convert(gzip(plain), NativeSymbols.Options.defaults());
    assertThat(b.nativeHeader()).isEqualTo(a.nativeHeader());
    assertThat(b.pages()).hasSameSizeAs(a.pages());
    for (int i = 0; i < a.pages().size(); i++) {
      assertThat(b.pages().get(i).bytes()).isEqualTo(a.pages().get(i).bytes());
    }
  }

  @Test
  void gzipBombIsCappedAtTheConfiguredLimit() throws IOException {
    // ~200 MB of valid-looking lines squeezed into a few hundred KB of gzip
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (GZIPOutputStream gz =
        new GZIPOutputStream(bos, 1 << 16) {
          {
            def.setLevel(Deflater.BEST_COMPRESSION);
          }
        }) {
      gz.write(HEAD.getBytes(StandardCharsets.US_ASCII));
      byte[] block =
          "STACK CFI 1000 .cfa: $rsp 16 +\n".repeat(1 << 15).getBytes(StandardCharsets.US_ASCII);
      for (long n = 0; n < 200_000_000L; n += block.length) {
        gz.write(block);
      }
    }
    byte[] bomb = bos.toByteArray();
    assertThat(bomb.length).isLessThan(2_000_000);
    long cap = 8L << 20;
    assertThatThrownBy(() -> convert(bomb, NativeSymbols.Options.defaults().withMaxInputBytes(cap)))
        .isInstanceOf(DebugFileInput.TooLargeException.class)
        .hasMessageContaining(Long.toString(cap));
  }

  @Test
  void gzipTrailerClaimingTenGigabytesIsNotBelieved() throws IOException {
    byte[] gz = gzip((HEAD + "FUNC 1000 10 0 f\n").getBytes(StandardCharsets.US_ASCII));
    long claim = 10_000_000_000L; // ISIZE is mod 2^32; claim 10 GB anyway
    int at = gz.length - 4;
    for (int i = 0; i < 4; i++) {
      gz[at + i] = (byte) (claim >>> (8 * i));
    }
    assertThatThrownBy(() -> convert(gz, NativeSymbols.Options.defaults()))
        .isInstanceOf(SymFormatException.class)
        .hasMessageContaining("corrupt");
  }

  @Test
  void absurdAddressesAndSizesDoNotOverflow() throws IOException {
    NativeTable t =
        convert(
            HEAD
                + "FUNC ffffffffffffff00 200 0 wraps_past_2_64\n" // high < base: dropped, like
                // Breakpad
                + "FUNC 1ffffffffffffffff 10 0 seventeen_digits\n" // unparsable: bad line
                + "FUNC 100 ffffffffffffffff 0 ullong_max_size\n" // Breakpad rejects ULLONG_MAX
                + "FUNC 8000000000000000 10 0 high_half\n"
                + "8000000000000000 ffffffffffffffff 5 0\n" // line size = ULLONG_MAX: bad line
                + "8000000000000000 fffffffffffffff0 6 0\n" // overflows: dropped
                + "8000000000000004 4 7 0\n"
                + "FUNC fffffffffffffff0 10 0 ends_at_2_64\n"
                + "PUBLIC 9000000000000000 0 pub_high\n");
    NativeHeader h = t.nativeHeader();
    assertThat(h.badLineCount()).isEqualTo(3);
    assertThat(h.droppedFunctionCount()).isEqualTo(1);
    NativeSymbolizer s = NativeSymbolizer.inMemory(t);
    assertThat(s.lookup(0xffffffffffffff80L).function()).isEqualTo("pub_high"); // below the FUNC
    assertThat(s.lookup(0xfffffffffffffff5L).function()).isEqualTo("ends_at_2_64");
    assertThat(s.lookup(-1L).function()).isEqualTo("ends_at_2_64");
    NativeFrame hi = s.lookup(0x8000000000000005L);
    assertThat(hi.function()).isEqualTo("high_half");
    assertThat(hi.line()).isEqualTo(7);
    assertThat(s.lookup(0x8000000000000001L).line()).isNull();
    // unsigned order: 0x9... is above 0x8..., the PUBLIC extends up to the next FUNC
    assertThat(s.lookup(0x9000000000001234L).function()).isEqualTo("pub_high");
    assertThat(s.lookup(0x8000000000000020L)).isNull();
    assertThat(s.lookup(0x100)).isNull();
  }

  @Test
  void nonUtf8NamesLoadAndDecodeWithReplacement() throws IOException {
    byte[] name = {'f', (byte) 0xff, (byte) 0xfe, 'o', (byte) 0xe9};
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(HEAD.getBytes(StandardCharsets.US_ASCII));
    b.write("FILE 0 caf".getBytes(StandardCharsets.US_ASCII));
    b.write(0xe9);
    b.write(".c\nFUNC 1000 10 0 ".getBytes(StandardCharsets.US_ASCII));
    b.write(name);
    b.write("\n1000 10 3 0\n".getBytes(StandardCharsets.US_ASCII));
    NativeTable t = convert(b.toByteArray(), NativeSymbols.Options.defaults());
    assertThat(t.nativeHeader().corrupt()).isFalse();
    NativeFrame f = NativeSymbolizer.inMemory(t).lookup(0x1008);
    assertThat(f.function()).isEqualTo("f\uFFFD\uFFFDo\uFFFD");
    assertThat(f.file()).isEqualTo("caf\uFFFD.c");
    assertThat(f.line()).isEqualTo(3);
  }

  @Test
  void oneMegabyteNamesRoundTripAndOverlongLinesAreCounted() throws IOException {
    String big = "N".repeat(1 << 20);
    NativeTable t =
        convert(
            HEAD + "FUNC 1000 10 0 " + big + "\n1000 10 3 0\n" + "PUBLIC 2000 0 " + big + "x\n");
    NativeSymbolizer s = NativeSymbolizer.inMemory(t);
    assertThat(s.lookup(0x1000).function()).isEqualTo(big);
    assertThat(s.lookup(0x2000).function()).hasSize((1 << 20) + 1);

    String junk = "J".repeat(3 << 20);
    NativeTable capped =
        convert(
            (HEAD + "FUNC 1000 10 0 a\n" + junk + "\nFUNC 2000 10 0 b\n")
                .getBytes(StandardCharsets.US_ASCII),
            NativeSymbols.Options.defaults().withMaxLineBytes(1 << 20));
    assertThat(capped.nativeHeader().badLineCount()).isEqualTo(1);
    assertThat(capped.nativeHeader().badLineSamples().get(0)).contains("longer than");
    NativeSymbolizer cs = NativeSymbolizer.inMemory(capped);
    assertThat(cs.lookup(0x1000).function()).isEqualTo("a");
    assertThat(cs.lookup(0x2000).function()).isEqualTo("b");
  }

  /**
   * Orders no real dump_syms output has (real files are ascending: zero insert moves) must not
   * cost quadratic time or deep recursion: past a per-FUNC budget the rest is counted as bad.
   */
  @Test
  void hostileOrderingsAreBoundedAndReported() throws IOException {
    int n = 300_000;
    StringBuilder sb = new StringBuilder(HEAD).append("FILE 0 a.c\nINLINE_ORIGIN 0 g\n");
    sb.append("FUNC 100000 100000 0 reversed_lines\n");
    for (int i = n - 1; i >= 0; i--) {
      sb.append(Integer.toHexString(0x100000 + 2 * i)).append(" 2 ").append(i + 1).append(" 0\n");
    }
    sb.append("FUNC 800000 1000 0 deeply_nested\n");
    for (int i = 0; i < n; i++) {
      sb.append("INLINE ").append(i).append(" 1 0 0 800000 10\n"); // each inside the one before
    }
    sb.append("FUNC 900000 100000 0 reversed_inlines\n");
    for (int i = n - 1; i >= 0; i--) {
      sb.append("INLINE 0 1 0 0 ").append(Integer.toHexString(0x900000 + 2 * i)).append(" 2\n");
    }
    sb.append("900000 100000 5 0\n");
    // every level-1 range over every level-0 one: a part per caller each would be n * n / 4
    sb.append("FUNC a00000 100000 0 spanning_inlines\n");
    for (int i = 0; i < n / 2; i++) {
      sb.append("INLINE 0 1 0 0 ").append(Integer.toHexString(0xa00000 + 2 * i)).append(" 1\n");
    }
    for (int i = 0; i < n / 2; i++) {
      sb.append("INLINE 1 1 0 0 ").append(Integer.toHexString(0xa00000 + i)).append(" 100000\n");
    }
    NativeTable t = convert(sb.toString());
    NativeHeader h = t.nativeHeader();
    assertThat(h.corrupt()).isTrue();
    assertThat(h.badLineSamples()).anyMatch(x -> x.contains("per-FUNC limits"));
    assertThat(h.badLineCount()).as(h.badLineSamples().toString()).isGreaterThan(n / 2);
    NativeSymbolizer s = NativeSymbolizer.inMemory(t);
    NativeFrame last = s.lookup(0x100000 + 2L * (n - 1)); // the first line record read
    assertThat(last.function()).isEqualTo("reversed_lines");
    assertThat(last.line()).isEqualTo(n);
    NativeFrame deep = s.lookup(0x800004);
    assertThat(deep.function()).isEqualTo("deeply_nested");
    assertThat(deep.inlines().size()).isGreaterThan(1000);
    NativeFrame rev = s.lookup(0x900000 + 2L * (n - 1));
    assertThat(rev.inlines()).extracting(InlineFrame::function).containsExactly("g");
    // the first level-1 range kept whole parts; the later ones start inside it: cut to nothing
    NativeFrame span = s.lookup(0xa00000 + 2L * 1000);
    assertThat(span.inlines()).extracting(InlineFrame::function).containsExactly("g", "g");
  }

  /** {@code n} copies of an ASCII line, produced as they are read. */
  static final class RepeatedLine extends InputStream {
    private final byte[] line;
    private final long total;
    private long pos;

    RepeatedLine(String line, long n) {
      this.line = line.getBytes(StandardCharsets.US_ASCII);
      this.total = n * this.line.length;
    }

    @Override
    public int read() {
      return pos < total ? line[(int) (pos++ % line.length)] : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos >= total) {
        return -1;
      }
      int k = (int) Math.min(len, total - pos);
      for (int i = 0; i < k; i++) {
        b[off + i] = line[(int) ((pos + i) % line.length)];
      }
      pos += k;
      return k;
    }
  }

  @Test
  void inlineRecordsPastThePerFuncLimitAreBadLinesAndAreNotKept() throws IOException {
    // 4 Mi + 1,000 zero-size INLINE records, then one with a range, in one FUNC: every record was
    // kept (12 bytes each, 96 MB of heap for 6 M) and none was counted, contradicting the limit
    int extra = 1000;
    NativeTableBuilder b = new NativeTableBuilder();
    InputStream in =
        new SequenceInputStream(
            Collections.enumeration(
                List.of(
                    new ByteArrayInputStream(
                        (HEAD + "FILE 0 a.c\nINLINE_ORIGIN 0 g\nFUNC 1000 10 0 f\n1000 10 3 0\n")
                            .getBytes(StandardCharsets.US_ASCII)),
                    new RepeatedLine(
                        "INLINE 0 0 0 0 0\n", NativeTableBuilder.MAX_PER_FUNC + (long) extra),
                    new ByteArrayInputStream(
                        "INLINE 0 7 0 1000 4\n".getBytes(StandardCharsets.US_ASCII)))));
    new SymParser(b, SymParser.DEFAULT_MAX_LINE).parse(in);
    // records without a range are never looked up: none was stored, the arrays did not grow
    assertThat(b.inlineRecordCapacity()).isEqualTo(64);
    // the limits are per FUNC: the next one keeps its INLINE
    b.func(false, 0x2000, 0x10, "h".getBytes(StandardCharsets.US_ASCII), 0, 1);
    b.line(0x2000, 0x10, 9, 0);
    assertThat(b.inline(0, 8, 0, 0, new long[] {0x2000, 4}, 1)).isTrue();
    List<TablePage> pages = new ArrayList<>();
    NativeHeader h = b.finish(pages::add, 0);
    assertThat(h.badLineCount()).isEqualTo(extra + 1);
    assertThat(h.badLineSamples())
        .containsExactly(
            "FUNC at 0x1000: "
                + (extra + 1)
                + " line/INLINE records beyond the per-FUNC limits (count or out-of-order inserts)");
    assertThat(h.inlineRangeCount()).isEqualTo(1);
    NativeSymbolizer s = NativeSymbolizer.inMemory(new NativeTable(h, pages));
    assertThat(s.lookup(0x1002).inlines()).isEmpty();
    assertThat(s.lookup(0x1002).line()).isEqualTo(3);
    assertThat(s.lookup(0x2002).inlines()).extracting(InlineFrame::function).containsExactly("g");
  }

  @Test
  void corruptPagesFailToDecodeWithAReason() throws IOException {
    NativeTable t =
        convert(
            fixture("mozilla-eliot/extracted/testproj_with_inlines.sym"),
            NativeSymbols.Options.defaults());
    byte[] page = t.pages().get(0).bytes();
    assertThatThrownBy(() -> NativePage.decode(Arrays.copyOf(page, page.length / 2)))
        .isInstanceOf(CorruptTableException.class);
    byte[] garbage = page.clone();
    for (int i = 12; i < garbage.length; i++) {
      garbage[i] ^= 0x5a;
    }
    assertThatThrownBy(() -> NativePage.decode(garbage)).isInstanceOf(CorruptTableException.class);
    assertThatThrownBy(() -> NativePage.decode(new byte[0]))
        .isInstanceOf(CorruptTableException.class);
    assertThatThrownBy(() -> NativeHeader.decode(new byte[] {1, 2, 3}))
        .isInstanceOf(CorruptTableException.class);
  }

  @Test
  void tableFileRoundTripsAndRejectsTruncation(@TempDir Path dir) throws IOException {
    Path sym = SharedFixtures.fixtures("native").resolve("google-breakpad/module1.out");
    Path out = dir.resolve("m.tbl");
    NativeTableFile.Written w = NativeTableFile.convert(sym, out, NativeSymbols.Options.defaults());
    assertThat(NativeTableFile.isTableFile(out)).isTrue();
    assertThat(NativeTableFile.isTableFile(sym)).isFalse();
    NativeTable back = NativeTableFile.read(out);
    assertThat(back.nativeHeader()).isEqualTo(w.header());
    assertThat(NativeSymbolizer.inMemory(back).lookup(0x1000).function()).isEqualTo("Function1_1");
    byte[] all = Files.readAllBytes(out);
    Path cut = dir.resolve("cut.tbl");
    Files.write(cut, Arrays.copyOf(all, all.length - 5));
    assertThatThrownBy(() -> NativeTableFile.read(cut))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("truncated");
  }

  /**
   * The heap index of FUNC, PUBLIC, FILE and INLINE_ORIGIN records is bounded (by a quarter of
   * the heap by default): a file whose index grows past it is refused with a reason, whichever
   * kind of record fills it, instead of running the heap out under the whole process.
   */
  @Test
  void anIndexLargerThanItsShareOfTheHeapIsRefusedWithAReason() throws IOException {
    String[] kinds = {
      "FUNC %x 10 0 f%d\n",
      "PUBLIC %x 0 p%d\n",
      "FILE %2$d src/f%2$d.cc\n",
      "INLINE_ORIGIN %2$d o%2$d\n"
    };
    long limit = 200 << 10;
    for (String kind : kinds) {
      for (int records : new int[] {100, 20_000}) {
        StringBuilder b = new StringBuilder(HEAD);
        for (int i = 1; i <= records; i++) {
          b.append(String.format(kind, 0x1000L + 0x10L * i, i));
        }
        byte[] text = b.toString().getBytes(StandardCharsets.ISO_8859_1);
        NativeTableBuilder limited =
            new NativeTableBuilder(
                NativeTableBuilder.DEFAULT_PAGE_TARGET,
                NativeTableBuilder.DEFAULT_CODEC,
                ChunkedBytes.DIRECT,
                limit);
        if (records == 100) {
          NativeSymbols.convert(
              new ByteArrayInputStream(text),
              NativeSymbols.Options.defaults(),
              page -> {},
              limited);
          continue;
        }
        assertThatThrownBy(
                () ->
                    NativeSymbols.convert(
                        new ByteArrayInputStream(text),
                        NativeSymbols.Options.defaults(),
                        page -> {},
                        limited))
            .as(kind)
            .isInstanceOf(SymFormatException.class)
            .hasMessageContaining(
                "the index of its FUNC, PUBLIC, FILE and INLINE_ORIGIN records takes more than 200 KB")
            .hasMessageContaining("raise -Xmx");
      }
    }
    // the loader's builder (the default one) has the heap's quarter as its limit
    try (NativeTableBuilder loaders = new NativeTableBuilder()) {
      assertThat(loaders.maxIndexBytes())
          .isEqualTo(Runtime.getRuntime().maxMemory() / 4)
          .isEqualTo(NativeTableBuilder.maxIndexBytesForHeap());
    }
  }
}
