package io.symbolicate.symbols.io;

/**
 * A cabinet file that is malformed, truncated, claims more than it holds or the caller allows,
 * or uses a compression not read here (LZX, Quantum). Unchecked, as the other format readers'
 * exceptions are; the message says what is wrong and where.
 */
public final class CabFormatException extends RuntimeException {
  public CabFormatException(String message) {
    super(message);
  }

  public CabFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
