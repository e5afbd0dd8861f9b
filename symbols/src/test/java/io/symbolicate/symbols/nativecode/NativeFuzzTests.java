package io.symbolicate.symbols.nativecode;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.symbols.testing.Fuzzing;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of the Breakpad side (docs/fuzzing.md). In every build each replays its corpus
 * under {@code src/test/resources/.../NativeFuzzTestsInputs/<target>/}; {@code scripts/fuzz.sh}
 * runs one coverage-guided.
 */
class NativeFuzzTests {
  /** Small pages, so that a few-KB input is cut into several and page boundaries get fuzzed. */
  private static final int PAGE_TARGET = 512;

  private static final PageCompression[] CODECS = PageCompression.values();

  /**
   * A .sym (plain or gzip) through the converter: a table or {@link SymFormatException} (or a
   * corrupt/oversized gzip stream). A table must decode again and answer lookups, and the
   * batched lookup must give the answers of the single one.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  @DictionaryEntries({
    "MODULE Linux x86_64 ",
    "MODULE windows x86 ",
    "FILE ",
    "FUNC ",
    "FUNC m ",
    "PUBLIC ",
    "PUBLIC m ",
    "INLINE ",
    "INLINE_ORIGIN ",
    "STACK CFI INIT ",
    "STACK WIN ",
    "INFO CODE_ID "
  })
  void symFile(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          NativeSymbols.Options options =
              NativeSymbols.Options.defaults()
                  .withMaxInputBytes(1 << 20)
                  .withPageTargetBytes(PAGE_TARGET)
                  .withCodec(CODECS[data.length % CODECS.length]);
          List<TablePage> pages = new ArrayList<>();
          NativeHeader header =
              NativeSymbols.convert(new ByteArrayInputStream(data), options, pages::add);
          check(
              NativeHeader.decode(header.encode()).equals(header),
              "header does not survive a round trip");
          check(
              header.pageCount() == pages.size(),
              "header's page count differs from the pages written");
          NativeSymbolizer symbolizer = NativeSymbolizer.inMemory(new NativeTable(header, pages));
          for (TablePage p : pages) {
            NativePage memo = NativePage.decode(p.bytes(), true);
            NativePage plain = NativePage.decode(p.bytes(), false);
            check(memo.firstKey() == p.firstKey(), "page key differs from the stored key");
            long[] addresses = probes(p.firstKey(), data);
            sameAnswers(memo, plain, addresses);
            for (long a : addresses) {
              symbolizer.lookup(a);
              symbolizer.lookup(a, CallerAdjust.ARM64);
            }
          }
        },
        SymFormatException.class,
        DebugFileInput.CorruptInputException.class,
        DebugFileInput.TooLargeException.class);
  }

  /**
   * Bytes as a stored page and as a stored header: a page that answers lookups (the batched
   * answers equal to the single ones), or {@link CorruptTableException}.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void tableBytes(byte[] data) throws Exception {
    expect(data, () -> NativeHeader.decode(data), CorruptTableException.class);
    expect(
        data,
        () -> {
          NativePage memo = NativePage.decode(data, true);
          NativePage plain = NativePage.decode(data, false);
          sameAnswers(memo, plain, probes(memo.firstKey(), data));
        },
        CorruptTableException.class);
  }

  /** Addresses around a page's first key and at both ends of the space, plus some the input picks. */
  private static long[] probes(long firstKey, byte[] data) {
    long tail = 0;
    for (int i = Math.max(0, data.length - 8); i < data.length; i++) {
      tail = tail << 8 | (data[i] & 0xFF);
    }
    return new long[] {
      firstKey,
      firstKey + 1,
      firstKey - 1,
      firstKey + 0x10,
      firstKey + 0x1000,
      0,
      -1L,
      Long.MIN_VALUE,
      tail,
      firstKey + (tail & 0xFFFF)
    };
  }

  /** {@link NativePage#lookupAll} over a page without memo answers as {@code lookup} does. */
  private static void sameAnswers(NativePage memo, NativePage plain, long[] addresses) {
    int n = addresses.length;
    NativePage[] pages = new NativePage[n];
    Arrays.fill(pages, plain);
    Recorder batched = new Recorder(n);
    NativePage.lookupAll(pages, addresses, n, batched, new int[n]);
    Recorder single = new Recorder(n);
    for (int k = 0; k < n; k++) {
      NativeFrame f = memo.lookup(addresses[k]);
      NativeFrame g = plain.lookup(addresses[k]);
      if (!Objects.equals(f, g)) {
        check(
            false,
            "memo and plain pages answer differently at "
                + Long.toHexString(addresses[k])
                + ": "
                + f
                + " / "
                + g);
      }
      if (f == null || f.function() == null) {
        single.nothing(k);
        continue;
      }
      for (InlineFrame in : f.inlines()) {
        single.inlined(
            k,
            in.function(),
            in.functionBase(),
            in.file(),
            in.line() == null ? NativePage.AnswerSink.NO_LINE : in.line());
      }
      single.frame(
          k,
          f.function(),
          f.functionBase(),
          f.file(),
          f.line() == null ? NativePage.AnswerSink.NO_LINE : f.line());
    }
    for (int k = 0; k < n; k++) {
      if (!batched.out[k].toString().equals(single.out[k].toString())) {
        check(
            false,
            "lookupAll differs from lookup at "
                + Long.toHexString(addresses[k])
                + ": "
                + batched.out[k]
                + " / "
                + single.out[k]);
      }
    }
  }

  /** Renders each address's answers as text, to compare the two lookup paths. */
  private static final class Recorder implements NativePage.AnswerSink {
    final StringBuilder[] out;

    Recorder(int n) {
      out = new StringBuilder[n];
      for (int i = 0; i < n; i++) {
        out[i] = new StringBuilder();
      }
    }

    @Override
    public void nothing(int k) {
      out[k].append("nothing;");
    }

    @Override
    public void inlined(
        int k, CharSequence function, long functionBase, CharSequence file, int line) {
      out[k]
          .append("inlined ")
          .append(function)
          .append('@')
          .append(functionBase)
          .append(' ')
          .append(file)
          .append(':')
          .append(line)
          .append(';');
    }

    @Override
    public void frame(
        int k, CharSequence function, long functionBase, CharSequence file, int line) {
      out[k]
          .append("frame ")
          .append(function)
          .append('@')
          .append(functionBase)
          .append(' ')
          .append(file)
          .append(':')
          .append(line)
          .append(';');
    }
  }
}
