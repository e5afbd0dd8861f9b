package io.symbolicate.connectors.loader.nativecode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.loader.TableConverter;
import io.symbolicate.symbols.io.Sizes;
import io.symbolicate.symbols.nativecode.SyntheticSymFile;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

class NativeTableConverterTest {
  private final NativeTableConverter converter = new NativeTableConverter();

  /**
   * The pages wait on the heap until the table is published: a table past the converter's share
   * of the heap is the file's fault at this heap size, malformed with a reason, not an
   * OutOfMemoryError (which the loader retries, downloading and converting it again each time).
   */
  @Test
  void aTablePastItsShareOfTheHeapIsMalformedWithAReason() throws Exception {
    byte[] sym = SyntheticSymFile.sym(0, 20_000);
    // the loader's entry point: a quarter of the heap, far more than this table
    assertThat(NativeTableConverter.maxTableBytesForHeap())
        .isEqualTo(Runtime.getRuntime().maxMemory() / 4);
    CompactTable whole =
        converter.convert(new ByteArrayInputStream(sym), sym.length, LoadPacer.unpaced());
    long bytes = whole.pages().stream().mapToLong(p -> p.bytes().length).sum();
    assertThat(whole.pages()).hasSizeGreaterThan(2);

    assertThatThrownBy(
            () ->
                converter.convert(
                    new ByteArrayInputStream(sym), sym.length, LoadPacer.unpaced(), bytes - 1))
        .isInstanceOf(TableConverter.MalformedSymbolsException.class)
        .hasMessageContaining("the converted table takes more than " + Sizes.of(bytes - 1) + ",")
        .hasMessageContaining("raise -Xmx");
    CompactTable exact =
        converter.convert(new ByteArrayInputStream(sym), sym.length, LoadPacer.unpaced(), bytes);
    assertThat(exact.pages())
        .extracting(TablePage::firstKey)
        .containsExactlyElementsOf(whole.pages().stream().map(TablePage::firstKey).toList());
  }
}
