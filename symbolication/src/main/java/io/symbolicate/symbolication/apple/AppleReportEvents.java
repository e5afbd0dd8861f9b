package io.symbolicate.symbolication.apple;

import io.symbolicate.schema.Attachment;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.NativeThread;
import io.symbolicate.schema.Platform;
import io.symbolicate.symbols.apple.AppleCrashReport;
import io.symbolicate.symbols.apple.AppleCrashReportException;
import io.symbolicate.symbols.apple.AppleCrashReportParser;
import io.symbolicate.symbols.apple.AppleNativeConverter;
import io.symbolicate.symbols.apple.NativeCrash;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A native event that carries an Apple crash report ({@code native.apple_crash_report}) made into
 * an ordinary native event: the report's images become {@code modules} (UUID to Breakpad debug
 * id), its threads {@code threads} with module-relative frames (the crashed one marked), and its
 * useful header fields {@code attributes} (names below; a producer's own value wins). Event id,
 * scope, release, dist and the other attributes are kept; modules and threads sent beside the
 * report are replaced, and the attachment is dropped once read (its frames are now the event's;
 * the raw event, report included, stays in the DLQ or S3). Pure: no I/O, thread-safe.
 * docs/apple-crash.md, "Apple reports as events".
 */
public final class AppleReportEvents {
  private AppleReportEvents() {}

  /** siggen's OS field ({@code macOS}, {@code iOS}, ...), read by the signature rules. */
  public static final String OS = "os";

  /** siggen's crash reason: the report's {@code Exception Type}. */
  public static final String REASON = "reason";

  /** The {@code OS Version} line as written ({@code Mac OS X 10.14.0 (18A391)}). */
  public static final String OS_VERSION = "apple.os_version";

  /** The app's {@code Version} line ({@code 1.0 (1)}: short version and build). */
  public static final String APP_VERSION = "apple.app_version";

  public static final String EXCEPTION_TYPE = "apple.exception_type";
  public static final String EXCEPTION_CODES = "apple.exception_codes";
  public static final String EXCEPTION_SUBTYPE = "apple.exception_subtype";
  public static final String TERMINATION_REASON = "apple.termination_reason";
  public static final String PROCESS = "apple.process";

  /** The bundle identifier ({@code Identifier}). */
  public static final String IDENTIFIER = "apple.identifier";

  public static final String HARDWARE_MODEL = "apple.hardware_model";
  public static final String CODE_TYPE = "apple.code_type";
  public static final String INCIDENT_IDENTIFIER = "apple.incident_identifier";

  /** The crash time, UTC ISO-8601. */
  public static final String CRASH_TIME = "apple.crash_time";

  /** The application specific information, cut to {@link #MAX_ATTRIBUTE_CHARS}. */
  public static final String CRASH_DETAILS = "apple.crash_details";

  /** {@code text}, {@code ips_text} or {@code ips_json}. */
  public static final String REPORT_FORMAT = "apple.report_format";

  /** Header lines copied to attributes, by the report's key. */
  private static final Map<String, String> HEADER_ATTRIBUTES = headerAttributes();

  /** Attribute values are cut to this many characters (a header line may hold 64 K). */
  public static final int MAX_ATTRIBUTE_CHARS = 1024;

  private static Map<String, String> headerAttributes() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("OS Version", OS_VERSION);
    m.put("Version", APP_VERSION);
    m.put("Exception Type", EXCEPTION_TYPE);
    m.put("Exception Codes", EXCEPTION_CODES);
    m.put("Exception Subtype", EXCEPTION_SUBTYPE);
    m.put("Termination Reason", TERMINATION_REASON);
    m.put("Process", PROCESS);
    m.put("Identifier", IDENTIFIER);
    m.put("Hardware Model", HARDWARE_MODEL);
    return Map.copyOf(m);
  }

  /** Whether the event is native and carries its Apple report inline ({@code data} or {@code text}). */
  public static boolean hasInlineReport(CrashEvent e) {
    Attachment a = report(e);
    return a != null && (a.getData() != null || a.getText() != null);
  }

  /** Whether the event is native and carries an Apple report (inline or by reference). */
  public static boolean hasReport(CrashEvent e) {
    return report(e) != null;
  }

  private static Attachment report(CrashEvent e) {
    if (e.getPlatform() != Platform.native$ || e.getNative$() == null) {
      return null;
    }
    return e.getNative$().getAppleCrashReport();
  }

  /**
   * The event with its inline report read ({@code text} if given, else {@code data}); an event
   * without an inline report is returned as it is.
   *
   * @throws AppleCrashReportException the report does not parse (the parser's reason)
   */
  public static CrashEvent expandInline(CrashEvent e) throws AppleCrashReportException {
    if (!hasInlineReport(e)) {
      return e;
    }
    Attachment a = e.getNative$().getAppleCrashReport();
    AppleCrashReport report =
        a.getText() != null
            ? AppleCrashReportParser.parse(a.getText())
            : AppleCrashReportParser.parse(bytes(a.getData()));
    return of(e, report);
  }

  /**
   * The event with the report given as bytes (fetched by reference): for the stage that reads
   * {@code bucket}/{@code key} off the stream thread.
   *
   * @throws AppleCrashReportException the report does not parse (the parser's reason)
   */
  public static CrashEvent withReport(CrashEvent e, byte[] report)
      throws AppleCrashReportException {
    return of(e, AppleCrashReportParser.parse(report));
  }

  /** The event made from a parsed report. */
  public static CrashEvent of(CrashEvent e, AppleCrashReport report) {
    NativeCrash crash = AppleNativeConverter.convert(report);
    NativePayload.Builder p =
        e.getNative$() == null
            ? NativePayload.newBuilder()
            : NativePayload.newBuilder(e.getNative$());
    p.setAppleCrashReport(null)
        .setArch(crash.arch() != null ? crash.arch() : p.getArch())
        .setModules(modules(crash))
        .setThreads(threads(crash));
    return CrashEvent.newBuilder(e)
        .setPlatform(Platform.native$)
        .setNative$(p.build())
        .setAttributes(attributes(e.getAttributes(), report, crash))
        .build();
  }

  static List<NativeModule> modules(NativeCrash crash) {
    List<NativeModule> out = new ArrayList<>(crash.modules().size());
    for (NativeCrash.Module m : crash.modules()) {
      out.add(
          NativeModule.newBuilder()
              .setType(m.type())
              .setCodeFile(m.codeFile())
              .setCodeId(m.codeId())
              .setDebugFile(m.debugFile())
              .setDebugId(m.debugId())
              .setImageAddr(m.imageAddr())
              .setImageSize(m.imageSize())
              .build());
    }
    return out;
  }

  static List<NativeThread> threads(NativeCrash crash) {
    List<NativeThread> out = new ArrayList<>(crash.threads().size());
    for (NativeCrash.Thread t : crash.threads()) {
      List<NativeFrame> frames = new ArrayList<>(t.frames().size());
      for (NativeCrash.Frame f : t.frames()) {
        NativeFrame.Builder b = NativeFrame.newBuilder().setTrust(f.trust());
        if (f.moduleIndex() >= 0) {
          b.setModuleIndex(f.moduleIndex()).setModuleOffset(f.moduleOffset());
        } else {
          b.setInstructionAddr(f.instructionAddr());
        }
        frames.add(b.build());
      }
      out.add(
          NativeThread.newBuilder()
              .setId(t.id())
              .setName(t.name())
              .setCrashed(t.crashed())
              .setFrames(frames)
              .build());
    }
    return out;
  }

  private static Map<String, String> attributes(
      Map<String, String> given, AppleCrashReport report, NativeCrash crash) {
    Map<String, String> out = new LinkedHashMap<>();
    for (var h : HEADER_ATTRIBUTES.entrySet()) {
      put(out, h.getValue(), report.metadata().get(h.getKey()));
    }
    put(out, OS, crash.systemInfo() == null ? null : crash.systemInfo().osName());
    put(out, REASON, crash.crashReason());
    put(out, CODE_TYPE, report.codeType());
    if (!report.incidentIdentifier().equals("00000000-0000-0000-0000-000000000000")) {
      put(out, INCIDENT_IDENTIFIER, report.incidentIdentifier());
    }
    put(out, CRASH_TIME, report.timestamp() == null ? null : report.timestamp().toString());
    put(out, CRASH_DETAILS, report.applicationSpecificInformation());
    put(out, REPORT_FORMAT, report.format().name().toLowerCase(Locale.ROOT));
    if (given != null) {
      out.putAll(given); // the producer's own values win
    }
    return out;
  }

  private static void put(Map<String, String> m, String key, String value) {
    if (value == null || value.isEmpty()) {
      return;
    }
    m.put(
        key,
        value.length() > MAX_ATTRIBUTE_CHARS ? value.substring(0, MAX_ATTRIBUTE_CHARS) : value);
  }

  private static byte[] bytes(ByteBuffer b) {
    ByteBuffer d = b.duplicate();
    byte[] out = new byte[d.remaining()];
    d.get(out);
    return out;
  }
}
