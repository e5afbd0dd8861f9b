package io.symbolicate.symbols.minidump;

/** A minidump that cannot be read, with the reason (offsets, sizes and counts it claims). */
public class MinidumpException extends Exception {
  private static final long serialVersionUID = 1L;

  public MinidumpException(String reason) {
    super(reason);
  }

  public MinidumpException(String reason, Throwable cause) {
    super(reason, cause);
  }
}
