package io.symbolicate.signatures;

import java.util.List;

/**
 * {@code java_exception.exception.values[i].stacktrace}: the exception's class (simple name in
 * {@code type}, package in {@code module}), its message and frames, newest first. A {@code null}
 * type is Python's None and prints as "None", as siggen does for an explicit JSON null; the JSON
 * reader puts "Unknown" where the key is missing, as siggen's default does.
 */
public record JavaStackTrace(String type, String module, String value, List<JavaFrame> frames) {
  public JavaStackTrace {
    frames = frames == null ? List.of() : List.copyOf(frames);
  }
}
