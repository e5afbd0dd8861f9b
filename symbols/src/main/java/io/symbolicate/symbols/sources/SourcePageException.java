package io.symbolicate.symbols.sources;

/** A stored source page that does not decode (truncated, bad tag, counts past its bytes). */
public final class SourcePageException extends RuntimeException {
  public SourcePageException(String message) {
    super(message);
  }
}
