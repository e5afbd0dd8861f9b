package io.symbolicate.symbols.table;

/** The engines that produce compact tables; the byte is written into stored keys and headers. */
public enum TableKind {
  NATIVE((byte) 'N'),
  JS((byte) 'J'),
  JVM((byte) 'P'),
  /**
   * .NET Portable PDB line tables (symbols.dotnet), for the .NET frames of native events; their
   * platform on symbols.requests and symbols.missing is {@code dotnet}.
   */
  DOTNET((byte) 'D');

  private final byte tag;

  TableKind(byte tag) {
    this.tag = tag;
  }

  public byte tag() {
    return tag;
  }

  public static TableKind fromTag(byte tag) {
    for (TableKind k : values()) {
      if (k.tag == tag) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown table kind tag " + tag);
  }
}
