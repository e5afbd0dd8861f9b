package io.symbolicate.symbols.js;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

/**
 * Findings of the js-sourcemap fuzz target (docs/fuzzing.md), each kept as a test of its own: a
 * text encoding Jackson refuses when the parser is created (UCS-4 in an unusual byte order) is
 * a {@link SourceMapException}, not an {@code IOException} the loader would retry as a fetch
 * failure.
 */
class SourceMapFuzzFindingsTest {
  /** The fuzzer's shortest input: UCS-4 with the 2143 byte order. */
  private static final byte[] UCS4_2143 = {0, 0, 'o', 0, 0, 0, 0, 'n', '"', '"'};

  /** A byte-order mark for UCS-4 in the 3412 order. */
  private static final byte[] UCS4_BOM_3412 = {(byte) 0xFE, (byte) 0xFF, 0, 0, '{', '}'};

  @Test
  void unsupportedUcs4OrderIsAnInvalidMapFromBytes() {
    for (byte[] b : new byte[][] {UCS4_2143, UCS4_BOM_3412}) {
      assertThatThrownBy(() -> new SourceMapParser().parse(b))
          .isInstanceOf(SourceMapException.class)
          .hasMessageContaining("invalid text encoding");
    }
  }

  @Test
  void unsupportedUcs4OrderIsAnInvalidMapFromAStream() {
    for (byte[] b : new byte[][] {UCS4_2143, UCS4_BOM_3412}) {
      assertThatThrownBy(
              () -> SourceMapParser.forHeap(null, 1 << 20).parse(new ByteArrayInputStream(b)))
          .isInstanceOf(SourceMapException.class)
          .hasMessageContaining("invalid text encoding");
    }
  }
}
