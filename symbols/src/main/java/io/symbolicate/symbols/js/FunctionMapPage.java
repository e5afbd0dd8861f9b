package io.symbolicate.symbols.js;

/** One source's Metro/Hermes function map, stored beside its content pages. */
public record FunctionMapPage(int source, FunctionMap map) implements JsPage {
  static final byte TAG = 'F';

  static long key(int source) {
    return JsTable.CONTENT_BIT | ((long) source << 32) | 0x8000_0000L;
  }

  byte[] encode() {
    ByteSink s = new ByteSink(256);
    s.write(TAG);
    s.writeVar(source);
    s.writeVar(map.names().length);
    for (String n : map.names()) {
      s.writeString(n);
    }
    s.writeVar(map.lines().length);
    int line = 0;
    for (int i = 0; i < map.lines().length; i++) {
      s.writeVar(map.lines()[i] - line);
      line = map.lines()[i];
      s.writeVar(map.columns()[i]);
      s.writeVar(map.nameIndex()[i]);
    }
    return s.toByteArray();
  }

  static FunctionMapPage decode(byte[] bytes) {
    ByteSource in = new ByteSource(bytes);
    in.read();
    int source = in.readVarInt();
    String[] names = new String[in.readCount()];
    for (int i = 0; i < names.length; i++) {
      names[i] = in.readString();
    }
    int n = in.readCount();
    int[] lines = new int[n];
    int[] cols = new int[n];
    int[] idx = new int[n];
    int line = 0;
    for (int i = 0; i < n; i++) {
      line += in.readVarInt();
      lines[i] = line;
      cols[i] = in.readVarInt();
      idx[i] = in.readVarInt();
      if (idx[i] >= names.length || (i > 0 && lines[i] < lines[i - 1])) {
        throw new IllegalArgumentException("corrupt js function map page");
      }
    }
    return new FunctionMapPage(source, new FunctionMap(names, lines, cols, idx));
  }
}
