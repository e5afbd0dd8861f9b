package io.symbolicate.symbols.apple;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a text crash report line by line with the state machine of apple-crash-report-parser
 * (header {@code Key: Value} lines, {@code Thread N:} sections of frames, the crashed thread's
 * registers, {@code Binary Images:}, the multi-line {@code Application Specific Information:}
 * and {@code Filtered syslog:} sections). Where it differs from that parser, {@link TextLines}
 * says so; in addition it refuses input that stops in the middle of a frame or image line, and
 * input with none of a crash report's parts.
 */
final class TextReportParser {
  private enum State {
    ROOT,
    THREAD,
    BINARY_IMAGES,
    THREAD_STATE,
    FILTERED_SYSLOG,
    APPLICATION_SPECIFIC
  }

  /** Header keys of which one, or a thread or an image, makes the text a crash report. */
  private static final List<String> REPORT_KEYS =
      List.of(
          "Process",
          "Exception Type",
          "Hardware Model",
          "OS Version",
          "Identifier",
          "Crashed Thread",
          "Triggered by Thread",
          "Incident Identifier",
          "Date/Time",
          "Code Type",
          "Report Version",
          "Path");

  private final String text;
  private final ReportBuilder out = new ReportBuilder();
  private final Map<Long, String[]> threadNames = new HashMap<>();
  private final TreeMap<String, Long> registers = new TreeMap<>();
  private final StringBuilder applicationSpecific = new StringBuilder();
  private final StringBuilder syslog = new StringBuilder();
  private boolean sawReportKey;
  private State state = State.ROOT;
  // the thread being read
  private long threadId;
  private String threadName;
  private String threadQueue;
  private boolean threadCrashed;
  private List<AppleFrame> threadFrames;
  private int lineNo;

  private TextReportParser(String text) {
    this.text = text;
  }

  static AppleCrashReport parse(String text, AppleCrashReport.ReportFormat format)
      throws AppleCrashReportException {
    return new TextReportParser(text).run(format);
  }

  private AppleCrashReport run(AppleCrashReport.ReportFormat format)
      throws AppleCrashReportException {
    int n = text.length();
    int pos = 0;
    while (pos < n) {
      int nl = text.indexOf('\n', pos);
      int end = nl < 0 ? n : nl;
      lineNo++;
      if (end - pos > AppleLimits.MAX_LINE_CHARS) {
        throw new AppleCrashReportException(
            "line " + lineNo + " is longer than " + AppleLimits.MAX_LINE_CHARS + " characters");
      }
      String line = text.substring(pos, Chars.trimEnd(text, pos, end));
      pos = nl < 0 ? n : nl + 1;
      line(line, pos >= n);
    }
    endThread();
    finish();
    if (!sawReportKey && out.threads.isEmpty() && out.images.isEmpty()) {
      throw new AppleCrashReportException(
          "not an Apple crash report: no threads, no binary images and none of the"
              + " header fields "
              + REPORT_KEYS);
    }
    return out.build(format);
  }

  private void line(String line, boolean last) throws AppleCrashReportException {
    if (line.startsWith("Binary Images:")) {
      state = State.BINARY_IMAGES;
      return;
    }
    if (line.startsWith("Application Specific Information:")) {
      state = State.APPLICATION_SPECIFIC;
      return;
    }
    if (line.startsWith("Filtered syslog:")) {
      state = State.FILTERED_SYSLOG;
      return;
    }
    if (line.startsWith("Thread ")) {
      if (TextLines.isThreadState(line)) {
        state = State.THREAD_STATE;
        return;
      }
      TextLines.ThreadHeader header = TextLines.threadHeader(line);
      if (header != null) {
        endThread();
        out.checkThreadCount(1);
        threadId = threadId(header.id());
        threadCrashed = header.crashed();
        threadName = header.name();
        threadQueue = header.dispatchQueue();
        threadFrames = new ArrayList<>();
        state = State.THREAD;
        return;
      }
      TextLines.ThreadName name = TextLines.threadName(line);
      if (name != null) {
        long id = threadId(name.id());
        if (threadNames.size() >= AppleLimits.MAX_THREADS && !threadNames.containsKey(id)) {
          throw new AppleCrashReportException(
              "more than " + AppleLimits.MAX_THREADS + " thread names");
        }
        threadNames.put(id, new String[] {name.name(), name.dispatchQueue()});
        state = State.ROOT;
        return;
      }
    }
    switch (state) {
      case ROOT -> header(line);
      case THREAD_STATE -> {
        if (line.isEmpty()) {
          state = State.ROOT;
        } else {
          registers(line);
        }
      }
      case THREAD -> {
        TextLines.FrameLine f = TextLines.frame(line);
        if (f != null) {
          frame(f);
        } else {
          if (last && Chars.skipDigits(line, 0, line.length()) > 0) {
            throw new AppleCrashReportException(
                "report is truncated: its last line "
                    + Chars.excerpt(line)
                    + " is an incomplete frame");
          }
          state = State.ROOT;
        }
      }
      case BINARY_IMAGES -> {
        if (!line.isEmpty()) {
          TextLines.ImageLine image = TextLines.image(line);
          if (image != null) {
            image(image);
          } else {
            if (last
                && line.startsWith("0x", Chars.skipSpace(line, 0, line.length()))
                && !hasUuidAndPath(line)) {
              throw new AppleCrashReportException(
                  "report is truncated: its last line "
                      + Chars.excerpt(line)
                      + " is an incomplete binary image");
            }
            state = State.ROOT;
          }
        }
      }
      case APPLICATION_SPECIFIC ->
          append(applicationSpecific, line, "Application Specific Information");
      case FILTERED_SYSLOG -> append(syslog, line, "Filtered syslog");
      default -> throw new IllegalStateException(state.name());
    }
  }

  /**
   * Whether an image line goes on past {@code <uuid>}: a last line that does not was cut short;
   * one that does is whole, even when the image pattern does not match it.
   */
  private static boolean hasUuidAndPath(String line) {
    int lt = line.indexOf('<');
    int gt = lt < 0 ? -1 : line.indexOf('>', lt);
    return gt > 0 && gt + 1 < line.length() && Chars.isSpace(line.charAt(gt + 1));
  }

  private void header(String line) throws AppleCrashReportException {
    int colon = line.indexOf(':');
    if (colon < 0) {
      return;
    }
    String key = Chars.trim(line.substring(0, colon));
    String value = Chars.trim(line.substring(colon + 1));
    if (REPORT_KEYS.contains(key)) {
      sawReportKey = true;
    }
    switch (key) {
      case "Incident Identifier" -> {
        String uuid = Uuids.canonical(value);
        if (uuid == null) {
          throw fail("invalid incident identifier " + Chars.excerpt(value));
        }
        out.incidentIdentifier = uuid;
      }
      case "Report Version" -> {
        long v = Chars.parseDecimal(value, 0, value.length(), 0xffff_ffffL);
        if (v < 0) {
          throw fail("invalid report version " + Chars.excerpt(value));
        }
        out.reportVersion = v;
      }
      case "Path" -> out.path = value;
      case "Code Type" -> out.codeType = value;
      case "Date/Time" -> {
        out.timestamp = CrashTimestamps.parse(value);
        if (out.timestamp == null) {
          throw fail(
              "invalid timestamp "
                  + Chars.excerpt(value)
                  + " (expected YYYY-MM-DD HH:MM:SS[.fraction] +ZZZZ)");
        }
      }
      case "Crashed Thread" -> {}
      default -> out.putMetadata(key, value);
    }
  }

  /** Every {@code name: 0xHEX} on the line, name in {@code [a-z0-9]+}. */
  private void registers(String line) throws AppleCrashReportException {
    int n = line.length();
    int pos = 0;
    while (true) {
      int colon = line.indexOf(':', pos);
      if (colon < 0) {
        return;
      }
      int ks = colon;
      while (ks > pos && isRegisterNameChar(line.charAt(ks - 1))) {
        ks--;
      }
      int v = Chars.skipSpace(line, colon + 1, n);
      int h = line.startsWith("0x", v) ? Chars.skipHex(line, v + 2, n) : v;
      if (ks == colon || v == colon + 1 || h <= v + 2) {
        pos = colon + 1;
        continue;
      }
      if (!Chars.hexFits(line, v + 2, h)) {
        throw fail("invalid register value " + Chars.excerpt(line.substring(v, h)));
      }
      String name = line.substring(ks, colon);
      if (registers.size() >= AppleLimits.MAX_REGISTERS && !registers.containsKey(name)) {
        throw fail("more than " + AppleLimits.MAX_REGISTERS + " registers");
      }
      registers.put(name, Chars.parseHex(line, v + 2, h));
      pos = Chars.skipSpace(line, h, n);
    }
  }

  private static boolean isRegisterNameChar(char c) {
    return c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
  }

  private void frame(TextLines.FrameLine f) throws AppleCrashReportException {
    out.countFrame(threadFrames.size());
    String addr = f.address();
    if (!Chars.hexFits(addr, 0, addr.length())) {
      throw fail("invalid frame instruction address 0x" + Chars.excerpt(addr));
    }
    String symbol = f.symbol();
    if (symbol.startsWith("0x") && Chars.hexFits(symbol, 2, symbol.length())) {
      symbol = null; // "0x1000 + 42": an image address and offset, no symbol
    }
    Long lineno = null;
    if (f.lineno() != null) {
      long v = Chars.parseDecimal(f.lineno(), 0, f.lineno().length(), 0xffff_ffffL);
      if (v < 0) {
        throw fail("invalid frame line number " + Chars.excerpt(f.lineno()));
      }
      lineno = v;
    }
    String module = f.module().equals("???") ? null : f.module();
    threadFrames.add(
        AppleFrame.ofText(
            module, symbol, f.filename(), lineno, Chars.parseHex(addr, 0, addr.length())));
  }

  private void image(TextLines.ImageLine image) throws AppleCrashReportException {
    if (!Chars.hexFits(image.start(), 0, image.start().length())) {
      throw fail("invalid binary image address 0x" + Chars.excerpt(image.start()));
    }
    if (!Chars.hexFits(image.end(), 0, image.end().length())) {
      throw fail("invalid binary image end address 0x" + Chars.excerpt(image.end()));
    }
    long start = Chars.parseHex(image.start(), 0, image.start().length());
    long end = Chars.parseHex(image.end(), 0, image.end().length());
    if (Long.compareUnsigned(end, start) < 0) {
      throw fail(
          "invalid binary image address range: end 0x"
              + Long.toHexString(end)
              + " is below start 0x"
              + Long.toHexString(start));
    }
    String uuid = Uuids.canonical(image.uuid());
    if (uuid == null) {
      throw fail(
          "invalid binary image identifier <"
              + Chars.excerpt(image.uuid())
              + "> (expected a UUID)");
    }
    out.addImage(
        new BinaryImage(
            start, end, uuid, image.arch(), image.version(), image.name(), image.path()));
  }

  private void append(StringBuilder section, String line, String what)
      throws AppleCrashReportException {
    if (section.length() + line.length() + 1 > AppleLimits.MAX_SECTION_CHARS) {
      throw fail(what + " is longer than " + AppleLimits.MAX_SECTION_CHARS + " characters");
    }
    if (section.length() > 0) {
      section.append('\n');
    }
    section.append(line);
  }

  private long threadId(String digits) throws AppleCrashReportException {
    if (!Chars.unsignedDecimalFits(digits, 0, digits.length())) {
      throw fail("invalid thread identifier " + Chars.excerpt(digits));
    }
    return Chars.parseUnsignedDecimal(digits, 0, digits.length());
  }

  private void endThread() {
    if (threadFrames != null) {
      out.threads.add(
          new AppleThread(
              threadId, threadName, threadQueue, threadCrashed, List.copyOf(threadFrames), null));
      threadFrames = null;
    }
  }

  /** Names by thread id (the first thread with the id), registers to the first crashed thread. */
  private void finish() {
    boolean registersPlaced = registers.isEmpty();
    for (int i = 0; i < out.threads.size(); i++) {
      AppleThread t = out.threads.get(i);
      String[] name = threadNames.remove(t.id());
      boolean withRegisters = !registersPlaced && t.crashed();
      if (name != null || withRegisters) {
        registersPlaced |= withRegisters;
        // a "Thread N name:" line that only gives a dispatch queue keeps the header's name
        out.threads.set(
            i,
            new AppleThread(
                t.id(),
                name != null && name[0] != null ? name[0] : t.name(),
                name != null ? name[1] : t.dispatchQueue(),
                t.crashed(),
                t.frames(),
                withRegisters ? ReportBuilder.registers(registers) : null));
      }
    }
    out.applicationSpecificInformation = section(applicationSpecific);
    out.filteredSyslog = section(syslog);
  }

  /** The section's lines joined, one trailing newline (from its blank closing line) dropped. */
  private static String section(StringBuilder b) {
    if (b.length() == 0) {
      return null;
    }
    if (b.charAt(b.length() - 1) == '\n') {
      b.setLength(b.length() - 1);
    }
    return b.toString();
  }

  private AppleCrashReportException fail(String reason) {
    return new AppleCrashReportException("line " + lineNo + ": " + reason);
  }
}
