package io.symbolicate.symbols.jvm;

/** A mapping file or compact table that cannot be used, with the reason. */
public final class MappingException extends RuntimeException {
  public MappingException(String message) {
    super(message);
  }
}
