package io.symbolicate.schema;

/** Wire names of {@link Platform} values (the Java constant for "native" is {@code native$}). */
public final class Platforms {
  private Platforms() {}

  public static String wireName(Platform p) {
    return Platform.SCHEMA$.getEnumSymbols().get(p.ordinal());
  }
}
