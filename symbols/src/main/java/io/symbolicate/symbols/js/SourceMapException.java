package io.symbolicate.symbols.js;

/** A sourcemap that violates Source Map v3 (ECMA-426); the message says exactly why. */
public final class SourceMapException extends Exception {
  public SourceMapException(String reason) {
    super(reason);
  }

  public SourceMapException(String reason, Throwable cause) {
    super(reason, cause);
  }
}
