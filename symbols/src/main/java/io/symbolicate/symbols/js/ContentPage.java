package io.symbolicate.symbols.js;

import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Consecutive lines of one original source's content, for context lines. Stored deflated (source
 * text compresses 3-5x and is read only when context is asked for): tag 'C', varint source,
 * varint first line, varint line count, varint inflated size, then the deflated lines (each a
 * {@link ByteSink} string).
 */
public record ContentPage(int source, int firstLine, String[] lines) implements JsPage {
  static final byte TAG = 'C';

  /** Upper bound on one page's inflated size (pages hold ~64 K chars; guards against bombs). */
  private static final int MAX_INFLATED = 16 << 20;

  byte[] encode() {
    ByteSink body = new ByteSink(1024);
    for (String l : lines) {
      body.writeString(l);
    }
    byte[] raw = body.toByteArray();
    Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION);
    d.setInput(raw);
    d.finish();
    ByteSink s = new ByteSink(raw.length / 3 + 64);
    s.write(TAG);
    s.writeVar(source);
    s.writeVar(firstLine);
    s.writeVar(lines.length);
    s.writeVar(raw.length);
    byte[] buf = new byte[8192];
    while (!d.finished()) {
      int n = d.deflate(buf);
      for (int i = 0; i < n; i++) {
        s.write(buf[i]);
      }
    }
    d.end();
    return s.toByteArray();
  }

  static ContentPage decode(byte[] bytes) {
    ByteSource in = new ByteSource(bytes);
    in.read();
    int source = in.readVarInt();
    int first = in.readVarInt();
    int n = in.readVarInt();
    int size = in.readVarInt();
    if (size > MAX_INFLATED || n > size) {
      throw new IllegalArgumentException("corrupt js content page: sizes");
    }
    byte[] raw = new byte[size];
    Inflater inf = new Inflater();
    try {
      inf.setInput(bytes, in.position(), bytes.length - in.position());
      int got = 0;
      while (got < size) {
        int k = inf.inflate(raw, got, size - got);
        if (k == 0 && (inf.finished() || inf.needsInput() || inf.needsDictionary())) {
          break;
        }
        got += k;
      }
      if (got != size || !inf.finished()) {
        throw new IllegalArgumentException("corrupt js content page: inflated size");
      }
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("corrupt js content page: " + e.getMessage(), e);
    } finally {
      inf.end();
    }
    ByteSource body = new ByteSource(raw);
    String[] lines = new String[n];
    for (int i = 0; i < n; i++) {
      lines[i] = body.readString();
    }
    return new ContentPage(source, first, lines);
  }

  /** The line, or null when this page does not hold it. */
  public String line(int line) {
    int i = line - firstLine;
    return i >= 0 && i < lines.length ? lines[i] : null;
  }
}
