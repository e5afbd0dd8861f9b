package io.symbolicate.symbols.nativecode;

import java.io.IOException;

/** The input is not a Breakpad symbol file at all (empty, HTML, binary), or cannot be read. */
public final class SymFormatException extends IOException {
  public SymFormatException(String message) {
    super(message);
  }

  public SymFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
