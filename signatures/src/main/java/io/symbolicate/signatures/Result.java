package io.symbolicate.signatures;

import java.util.ArrayList;
import java.util.List;

/** The signature being built as the rules run, with notes and debug lines (siggen's Result). */
final class Result {
  String signature = "";
  final List<String> notes = new ArrayList<>();

  /** The debug lines, or null when nobody reads them (the stream signs without). */
  final List<String> debugLog;

  /** siggen's extra["proto_signature"]; {@code null} when the rule set none. */
  String protoSignature;

  List<String> normalizedFrames;

  Result() {
    this(true);
  }

  /**
   * {@code keepDebugLog} false: the debug lines, a string built per rule and per frame, are
   * neither built nor kept.
   */
  Result(boolean keepDebugLog) {
    this.debugLog = keepDebugLog ? new ArrayList<>() : null;
  }

  Result(String signature) {
    this();
    this.signature = signature;
  }

  /** Whether debug lines are kept: callers build costly lines only then. */
  boolean debugging() {
    return debugLog != null;
  }

  void setSignature(String rule, String newSignature) {
    if (debugLog != null) {
      debug(rule, "change signature: \"" + signature + "\" -> \"" + newSignature + "\"");
    }
    signature = newSignature;
  }

  void info(String rule, String message) {
    notes.add(rule + ": " + message);
  }

  void debug(String rule, String message) {
    if (debugLog != null) {
      debugLog.add(rule + ": " + message);
    }
  }

  SignatureResult toPublic() {
    return new SignatureResult(
        signature,
        protoSignature == null ? "" : protoSignature,
        notes,
        debugLog == null ? List.of() : debugLog);
  }
}
