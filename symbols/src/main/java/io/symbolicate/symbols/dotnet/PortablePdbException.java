package io.symbolicate.symbols.dotnet;

/**
 * A Portable PDB (or the ECMA-335 metadata of a .NET image) that is malformed, truncated, claims
 * more than it holds, or is not a format we read. The message says what is wrong and where.
 */
public final class PortablePdbException extends RuntimeException {
  public PortablePdbException(String message) {
    super(message);
  }

  public PortablePdbException(String message, Throwable cause) {
    super(message, cause);
  }
}
