package io.symbolicate.symbols.js;

/** Consecutive lines of one original source's content, for context lines. */
public record ContentPage(int source, int firstLine, String[] lines) implements JsPage {
  static final byte TAG = 'C';

  byte[] encode() {
    ByteSink s = new ByteSink(1024);
    s.write(TAG);
    s.writeVar(source);
    s.writeVar(firstLine);
    s.writeVar(lines.length);
    for (String l : lines) {
      s.writeString(l);
    }
    return s.toByteArray();
  }

  static ContentPage decode(byte[] bytes) {
    ByteSource in = new ByteSource(bytes);
    in.read();
    int source = in.readVarInt();
    int first = in.readVarInt();
    int n = in.readCount();
    String[] lines = new String[n];
    for (int i = 0; i < n; i++) {
      lines[i] = in.readString();
    }
    return new ContentPage(source, first, lines);
  }

  /** The line, or null when this page does not hold it. */
  public String line(int line) {
    int i = line - firstLine;
    return i >= 0 && i < lines.length ? lines[i] : null;
  }
}
