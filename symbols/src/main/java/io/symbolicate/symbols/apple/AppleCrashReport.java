package io.symbolicate.symbols.apple;

import java.time.Instant;
import java.util.List;
import java.util.SortedMap;

/**
 * A parsed Apple crash report, text ({@code .crash}) or JSON ({@code .ips}), in the shape of
 * apple-crash-report-parser's {@code AppleCrashReport}. Nullable fields are absent in the report;
 * {@code incidentIdentifier} is the nil UUID and {@code reportVersion} 0 when it has none.
 *
 * @param incidentIdentifier lower-case hyphenated UUID
 * @param reportVersion unsigned 32-bit
 * @param metadata every other {@code Key: Value} header line, by key
 */
public record AppleCrashReport(
    ReportFormat format,
    String incidentIdentifier,
    Instant timestamp,
    String codeType,
    String path,
    String applicationSpecificInformation,
    String filteredSyslog,
    long reportVersion,
    SortedMap<String, String> metadata,
    List<AppleThread> threads,
    List<BinaryImage> binaryImages) {

  /** Where the parse came from. */
  public enum ReportFormat {
    /** A text crash report ({@code .crash}, PLCrashReporter, KSCrash). */
    TEXT,
    /** An .ips file whose JSON header line is followed by a text report (iOS 14 and older). */
    IPS_TEXT,
    /** An .ips file with a JSON report body (bug_type 309, iOS 15 / macOS 12 and newer). */
    IPS_JSON
  }

  /** The first thread marked as crashed, or null. */
  public AppleThread crashedThread() {
    for (AppleThread t : threads) {
      if (t.crashed()) {
        return t;
      }
    }
    return null;
  }
}
