package io.symbolicate.symbols.nativecode;

import java.util.Arrays;

/**
 * Deduplicates byte strings (names) within one page without creating Strings: hashes byte
 * ranges and keeps the bytes length-prefixed in a {@link ByteWriter}, ready to be written.
 */
final class BytesInterner {
  private final ByteWriter data = new ByteWriter(1 << 16);
  private int[] table = new int[1024]; // index + 1
  private int[] offs = new int[256];
  private int[] lens = new int[256];
  private int[] hashes = new int[256];
  private int count;

  int count() {
    return count;
  }

  ByteWriter data() {
    return data;
  }

  int intern(byte[] b, int off, int len) {
    int h = 1;
    for (int i = off, e = off + len; i < e; i++) {
      h = 31 * h + b[i];
    }
    h ^= h >>> 15;
    int mask = table.length - 1;
    int i = h & mask;
    while (true) {
      int t = table[i];
      if (t == 0) {
        break;
      }
      int k = t - 1;
      if (hashes[k] == h
          && lens[k] == len
          && Arrays.equals(data.array(), offs[k], offs[k] + len, b, off, off + len)) {
        return k;
      }
      i = (i + 1) & mask;
    }
    if (count == offs.length) {
      offs = Arrays.copyOf(offs, count * 2);
      lens = Arrays.copyOf(lens, count * 2);
      hashes = Arrays.copyOf(hashes, count * 2);
    }
    data.writeVar(len);
    offs[count] = data.size();
    lens[count] = len;
    hashes[count] = h;
    data.writeBytes(b, off, len);
    table[i] = ++count;
    if (count * 2 > table.length) {
      rehash();
    }
    return count - 1;
  }

  private void rehash() {
    table = new int[table.length * 2];
    int mask = table.length - 1;
    for (int k = 0; k < count; k++) {
      int i = hashes[k] & mask;
      while (table[i] != 0) {
        i = (i + 1) & mask;
      }
      table[i] = k + 1;
    }
  }

  void clear() {
    Arrays.fill(table, 0);
    data.reset();
    count = 0;
  }
}
