package io.symbolicate.symbols.dotnet;

/** A source file embedded in a Portable PDB: its document's name and its (inflated) bytes. */
public final class EmbeddedSource {
  private final String path;
  private final byte[] contents;

  private EmbeddedSource(String path, byte[] contents) {
    this.path = path;
    this.contents = contents;
  }

  public static EmbeddedSource of(String path, byte[] contents) {
    return new EmbeddedSource(path, contents.clone());
  }

  /** Shares {@code contents}: the reader's own array, which nothing writes afterwards. */
  static EmbeddedSource shared(String path, byte[] contents) {
    return new EmbeddedSource(path, contents);
  }

  public String path() {
    return path;
  }

  public byte[] contents() {
    return contents.clone();
  }

  public int length() {
    return contents.length;
  }

  @Override
  public String toString() {
    return "EmbeddedSource[" + path + ", " + contents.length + " bytes]";
  }
}
