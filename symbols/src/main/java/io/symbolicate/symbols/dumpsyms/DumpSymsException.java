package io.symbolicate.symbols.dumpsyms;

/** A file {@link DumpSyms} cannot turn into symbols; the message says which and why. */
public final class DumpSymsException extends Exception {
  public DumpSymsException(String message) {
    super(message);
  }

  public DumpSymsException(String message, Throwable cause) {
    super(message, cause);
  }
}
