package io.symbolicate.symbols.symbfile;

/**
 * A symbfile (or a FileID) that cannot be used, with the reason: the store marks the module
 * malformed, an upload answers 400. Checked, and apart from I/O failures the only exception the
 * reader lets out.
 */
public final class SymbfileException extends Exception {
  public SymbfileException(String message) {
    super(message);
  }

  public SymbfileException(String message, Throwable cause) {
    super(message, cause);
  }
}
