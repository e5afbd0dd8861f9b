package io.symbolicate.symbols.dotnet;

/** A source file embedded in a Portable PDB: its document's name and its (inflated) bytes. */
public final class EmbeddedSource {
  private final String path;
  private final byte[] contents;

  public EmbeddedSource(String path, byte[] contents) {
    this(path, contents.clone(), false);
  }

  /** Shares {@code contents} (the reader's own array, which nothing else writes). */
  EmbeddedSource(String path, byte[] contents, boolean unused) {
    this.path = path;
    this.contents = contents;
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
