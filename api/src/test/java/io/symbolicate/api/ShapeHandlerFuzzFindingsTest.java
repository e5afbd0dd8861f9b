package io.symbolicate.api;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Findings of the api-request fuzz target (docs/fuzzing.md), each a test of its own: bodies whose
 * first bytes look like UTF-32 (or UCS-4 in an unusual byte order) made Jackson throw
 * {@code CharConversionException}, an {@code IOException}, and a decimal with an exponent out of
 * range a {@code NumberFormatException}: the server answered both with 500.
 */
class ShapeHandlerFuzzFindingsTest {
  @Test
  void brokenUtf32AndUnusualUcs4AreBadRequests() {
    byte[][] bodies = {
      {0x22, 0, 0, 0, 0x02, 0}, // UTF-32 LE cut in a char
      {0x7b, 0, 0, 0, 0, 0, 0, 0, 0, 0x22, 0x22, 0x6f, 0x67, 0x7b, 0}, // a char above 0x10ffff
      {0, 0, 0x02, 0, 0x22, 0x22, 0x6f, 0x67, 0x7b, 0}, // UCS-4 order 2143
      {0, 0x3b, 0, 0, 0x22, 0x22, 0x6f, 0x67, 0x7b, 0}, // UCS-4 order 3412
    };
    for (byte[] b : bodies) {
      assertThatThrownBy(() -> ShapeHandler.readJson(b))
          .isInstanceOfSatisfying(
              ApiException.class, e -> Assertions.assertThat(e.status()).isEqualTo(400))
          .hasMessageContaining("payload is not valid JSON");
    }
    // and plain UTF-16 JSON still reads, as Jackson detects it
    Assertions.assertThatCode(
            () -> ShapeHandler.readJson("{\"jobs\": []}".getBytes(StandardCharsets.UTF_16BE)))
        .doesNotThrowAnyException();
  }

  /** A decimal with an exponent no BigDecimal holds: Jackson's NumberFormatException was a 500. */
  @Test
  void aNumberOutOfRangeIsABadRequest() {
    byte[] body =
        ("{\"jobs\":[{\"stacks\": [[[0, 4192]]], \"memoryMap\": [[\"a\", "
                + "238E-7777777777777777777777777777777777777777777777777]]}]}")
            .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> ShapeHandler.readJson(body))
        .isInstanceOfSatisfying(
            ApiException.class, e -> Assertions.assertThat(e.status()).isEqualTo(400))
        .hasMessageContaining("a number out of range");
  }
}
