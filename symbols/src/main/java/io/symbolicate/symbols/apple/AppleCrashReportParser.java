package io.symbolicate.symbols.apple;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Parses an Apple crash report, whichever form it has: a text report ({@code .crash}, also as
 * PLCrashReporter and KSCrash write it) or an {@code .ips} file (a JSON header line, then a JSON
 * or text body). Stateless and thread-safe. Input is UTF-8, at most {@link
 * AppleLimits#MAX_REPORT_BYTES}; every failure is an {@link AppleCrashReportException} with a
 * reason.
 */
public final class AppleCrashReportParser {
  private AppleCrashReportParser() {}

  public static AppleCrashReport parse(Path file) throws IOException, AppleCrashReportException {
    try (InputStream in = Files.newInputStream(file)) {
      return parse(in);
    }
  }

  /** Reads at most {@link AppleLimits#MAX_REPORT_BYTES} + 1 bytes; does not close {@code in}. */
  public static AppleCrashReport parse(InputStream in)
      throws IOException, AppleCrashReportException {
    return parse(in.readNBytes(AppleLimits.MAX_REPORT_BYTES + 1));
  }

  public static AppleCrashReport parse(byte[] report) throws AppleCrashReportException {
    if (report.length > AppleLimits.MAX_REPORT_BYTES) {
      throw new AppleCrashReportException(
          "report is larger than " + AppleLimits.MAX_REPORT_BYTES + " bytes");
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(report))
              .toString();
    } catch (CharacterCodingException e) {
      throw new AppleCrashReportException("report is not UTF-8 text (" + e.getMessage() + ")");
    }
    return parse(text);
  }

  /** A report already decoded; at most {@link AppleLimits#MAX_REPORT_BYTES} characters. */
  public static AppleCrashReport parse(String report) throws AppleCrashReportException {
    if (report.length() > AppleLimits.MAX_REPORT_BYTES) {
      throw new AppleCrashReportException(
          "report is longer than " + AppleLimits.MAX_REPORT_BYTES + " characters");
    }
    String text = report.startsWith("\uFEFF") ? report.substring(1) : report;
    int first = Chars.skipSpace(text, 0, text.length());
    if (first == text.length()) {
      throw new AppleCrashReportException("report is empty");
    }
    if (text.indexOf('\0') >= 0) {
      throw new AppleCrashReportException(
          "report contains NUL characters: binary data, not a crash report");
    }
    return text.charAt(first) == '{'
        ? IpsReportParser.parse(text.substring(first))
        : TextReportParser.parse(text, AppleCrashReport.ReportFormat.TEXT);
  }
}
