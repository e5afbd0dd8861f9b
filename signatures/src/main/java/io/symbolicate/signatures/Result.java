package io.symbolicate.signatures;

import java.util.ArrayList;
import java.util.List;

/** The signature being built as the rules run, with notes and debug lines (siggen's Result). */
final class Result {
  String signature = "";
  final List<String> notes = new ArrayList<>();
  final List<String> debugLog = new ArrayList<>();

  /** siggen's extra["proto_signature"]; {@code null} when the rule set none. */
  String protoSignature;

  List<String> normalizedFrames;

  Result() {}

  Result(String signature) {
    this.signature = signature;
  }

  void setSignature(String rule, String newSignature) {
    debug(rule, "change signature: \"" + signature + "\" -> \"" + newSignature + "\"");
    signature = newSignature;
  }

  void info(String rule, String message) {
    notes.add(rule + ": " + message);
  }

  void debug(String rule, String message) {
    debugLog.add(rule + ": " + message);
  }

  SignatureResult toPublic() {
    return new SignatureResult(
        signature, protoSignature == null ? "" : protoSignature, notes, debugLog);
  }
}
