package io.symbolicate.symbols.jvm;

import io.symbolicate.symbols.io.DebugFileInput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/** Entry points: mapping bytes to a table, and the page decoder a page store plugs in. */
public final class JvmPages {
  private JvmPages() {}

  /** Decodes one stored page ({@code byte[] -> JvmPage}), as a {@code PageSource} needs. */
  public static JvmPage decode(byte[] bytes) {
    return JvmPageFormat.decode(bytes);
  }

  /** Parses a mapping.txt and builds its compact table. */
  public static JvmTable fromMapping(byte[] mapping) {
    return JvmTableBuilder.build(MappingParser.parse(mapping));
  }

  /** Reads a (possibly gzipped) mapping file with a cap on its decompressed size. */
  public static byte[] readMapping(Path file, long maxBytes) throws IOException {
    try (InputStream in = DebugFileInput.open(file, maxBytes)) {
      return in.readAllBytes();
    }
  }
}
