package io.symbolicate.connectors.loader;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.connectors.loader.js.JsTableConverter;
import io.symbolicate.connectors.loader.jvm.JvmTableConverter;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.testing.EndlessInput;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * The converters that parse a whole file in memory (ProGuard mappings, sourcemaps) stop at a
 * quarter of the heap with a reason the loader caches as malformed, however high the
 * configured cap: a decompressed gzip bomb used to end in an OutOfMemoryError on the loading
 * thread, retried by every request that named the module.
 */
class InHeapConvertersTest {
  private static final long CONFIGURED = 4L << 30; // symbols.max.file.bytes' default

  @Test
  void aMappingLargerThanTheHeapCanHoldFailsWithAReason() {
    assertThatThrownBy(
            () -> new JvmTableConverter().convert(endless("com.example.A -> a:\n"), CONFIGURED))
        .isInstanceOf(DebugFileInput.TooLargeException.class)
        .hasMessageContaining(
            "ProGuard mapping larger than " + DebugFileInput.inHeapLimit(CONFIGURED))
        .hasMessageContaining("-Xmx");
  }

  @Test
  void aSourcemapLargerThanTheHeapCanHoldFailsWithAReason() {
    assertThatThrownBy(() -> new JsTableConverter().convert(endless("{\"version\":3,"), CONFIGURED))
        .isInstanceOf(DebugFileInput.TooLargeException.class)
        .hasMessageContaining("sourcemap larger than " + DebugFileInput.inHeapLimit(CONFIGURED))
        .hasMessageContaining("-Xmx");
  }

  private static InputStream endless(String head) {
    return new EndlessInput(head);
  }
}
