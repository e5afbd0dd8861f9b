package io.symbolicate.symbols.dotnet;

/** A source file embedded in a Portable PDB: its document's name and its (inflated) bytes. */
public record EmbeddedSource(String path, byte[] contents) {
  public EmbeddedSource {
    contents = contents.clone();
  }

  @Override
  public byte[] contents() {
    return contents.clone();
  }

  public int length() {
    return contents.length;
  }
}
