package io.symbolicate.symbols.apple;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * Prints an Apple crash report file ({@code .crash} text or {@code .ips}) as the JSON of its
 * parse ({@link AppleReportJson}): what {@code ./symbolicator apple parse FILE} prints.
 */
public final class AppleReportPrinter {
  private AppleReportPrinter() {}

  /** Parses {@code file} and writes its JSON to {@code out} (flushed, not closed). */
  public static void print(Path file, OutputStream out)
      throws IOException, AppleCrashReportException {
    AppleReportJson.write(AppleCrashReportParser.parse(file), out);
  }
}
