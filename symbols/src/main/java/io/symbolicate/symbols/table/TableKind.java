package io.symbolicate.symbols.table;

/** The engines that produce compact tables; the byte is written into stored keys and headers. */
public enum TableKind {
  NATIVE((byte) 'N'),
  JS((byte) 'J'),
  JVM((byte) 'P'),
  /** .NET Portable PDB line tables (symbols.dotnet); stored by the loader, not yet in the event schema. */
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
