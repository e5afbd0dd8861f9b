package io.symbolicate.symbols.nativecode;

/** A compact table (header or page) that does not decode: truncated, wrong version, bad counts. */
public final class CorruptTableException extends RuntimeException {
  public CorruptTableException(String message) {
    super(message);
  }
}
