package io.symbolicate.symbols.sources;

/** A source bundle that cannot be read at all (not a zip, no manifest, over a limit). */
public final class SourceBundleException extends Exception {
  public SourceBundleException(String message) {
    super(message);
  }

  public SourceBundleException(String message, Throwable cause) {
    super(message, cause);
  }
}
