package io.symbolicate.symbols.symbfile;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.nativecode.CallerAdjust;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.PageCompression;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.symbols.testing.Fuzzing;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of the symbfile side (docs/fuzzing.md). In every build it replays its corpus under
 * {@code src/test/resources/.../SymbfileFuzzTestsInputs/symbfile/}; {@code scripts/fuzz.sh
 * symbfile} runs it coverage-guided.
 */
class SymbfileFuzzTests {
  /** Small pages, so that a few-KB input is cut into several and page boundaries get fuzzed. */
  private static final int PAGE_TARGET = 512;

  private static final PageCompression[] CODECS = PageCompression.values();

  /**
   * Bytes as a symbfile (plain or gzip): every record through the reader, then through the
   * converter into a native table that answers lookups; or {@link SymbfileException} (or a
   * corrupt/oversized gzip stream). The table's header counts its pages.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void symbfile(byte[] data) throws Exception {
    long[] read = {-1}; // records of the whole input by the record path (next), if it read it all
    expect(
        data,
        () -> {
          try (SymbfileReader reader =
              new SymbfileReader(DebugFileInput.wrap(new ByteArrayInputStream(data), 1 << 20))) {
            long records = 0;
            while (reader.next() != null) {
              records++;
            }
            check(records <= reader.messageCount(), "more records than messages");
            read[0] = records;
          }
        },
        SymbfileException.class,
        DebugFileInput.CorruptInputException.class,
        DebugFileInput.TooLargeException.class);
    expect(
        data,
        () -> {
          NativeSymbols.Options options =
              NativeSymbols.Options.defaults()
                  .withMaxInputBytes(1 << 20)
                  .withPageTargetBytes(PAGE_TARGET)
                  .withCodec(CODECS[data.length % CODECS.length]);
          List<TablePage> pages = new ArrayList<>();
          NativeHeader header;
          long converted;
          try (SymbfileConverter c =
              new SymbfileConverter(
                  new SymbfileConverter.Module("fuzz.so", "x86_64", FileId.of(data)), options)) {
            c.add(new ByteArrayInputStream(data));
            header = c.finish(pages::add);
            converted = c.rangeCount() + c.returnPadCount();
          }
          check(
              header.pageCount() == pages.size(),
              "header's page count differs from the pages written");
          // the converter's in-place path (advance) reads the records the record path does
          check(read[0] < 0 || converted == read[0], "the two read paths count different records");
          NativeSymbolizer symbolizer = NativeSymbolizer.inMemory(new NativeTable(header, pages));
          for (TablePage p : pages) {
            for (long a :
                new long[] {
                  p.firstKey(), p.firstKey() + 1, p.firstKey() - 1, p.firstKey() + 0x40
                }) {
              symbolizer.lookup(a);
              symbolizer.lookup(a, CallerAdjust.ARM64);
              symbolizer.returnPad(a);
            }
          }
        },
        SymbfileException.class,
        DebugFileInput.CorruptInputException.class,
        DebugFileInput.TooLargeException.class);
  }
}
