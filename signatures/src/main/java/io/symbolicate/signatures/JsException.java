package io.symbolicate.signatures;

import java.util.List;

/**
 * A JavaScript exception (our extension of siggen's schema, key {@code js_exception}): its type
 * (TypeError, ...), message, and frames innermost first (the frame that threw comes first, as in
 * siggen's threads and our symbolicated output).
 */
public record JsException(String type, String value, List<JsFrame> frames) {
  public JsException {
    frames = frames == null ? List.of() : List.copyOf(frames);
  }
}
