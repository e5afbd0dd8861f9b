package io.symbolicate.connectors.loader.nativecode;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.loader.TableConverter.MalformedSymbolsException;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.testing.Fuzzing;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Timeout;

/**
 * The loader's debug-file path on hostile bytes (docs/fuzzing.md, {@code loader-debug-file}): a
 * fetched body spooled (as it is, or the object file a zip holds) and converted by our dump_syms.
 * A bad file is {@link MalformedSymbolsException} (cached as malformed) or a {@link
 * DebugFileInput} size/corruption error, never anything else.
 */
class DebugFileFuzzTests {
  private static final long MAX_BYTES = 4 << 20;

  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void debugFile(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          NativeTable t =
              DebugFileConverter.convert(
                  DebugFileInput.wrap(new ByteArrayInputStream(data), MAX_BYTES),
                  null,
                  "fuzz",
                  null,
                  MAX_BYTES,
                  LoadPacer.unpaced(),
                  64L << 20);
          check(t.header() != null, "a table without a header");
        },
        MalformedSymbolsException.class,
        DebugFileInput.TooLargeException.class,
        DebugFileInput.CorruptInputException.class);
  }
}
