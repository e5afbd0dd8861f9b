package io.symbolicate.symbols.objects;

/**
 * An object file (ELF, Mach-O) that is malformed, truncated, lies about a size, or is not a
 * format we read. Unchecked because {@link ObjectSections#section} decompresses lazily and its
 * readers should not have to declare it; the message says what is wrong and where.
 */
public final class ObjectFormatException extends RuntimeException {
  public ObjectFormatException(String message) {
    super(message);
  }

  public ObjectFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
