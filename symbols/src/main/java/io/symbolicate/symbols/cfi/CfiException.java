package io.symbolicate.symbols.cfi;

/**
 * Unwind info that cannot be read: a length beyond its section, an unknown pointer encoding, a
 * CIE that is not one. Inside a section the readers catch it per entry (the entry is skipped, as
 * Breakpad and symbolic skip it); it reaches the caller only when the section as a whole is
 * unusable.
 */
public final class CfiException extends RuntimeException {
  public CfiException(String message) {
    super(message);
  }
}
