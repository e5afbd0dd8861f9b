package io.symbolicate.symbols.jvm;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Interns byte ranges as Strings without allocating a String for a name seen before: mappings
 * repeat the same method, type and obfuscated names tens of thousands of times.
 */
final class ByteInterner {
  private byte[][] keys = new byte[1 << 12][];
  private String[] values = new String[1 << 12];
  private int[] hashes = new int[1 << 12];
  private int size;

  String intern(byte[] buf, int s, int e) {
    int h = 1;
    for (int i = s; i < e; i++) {
      h = 31 * h + buf[i];
    }
    h ^= h >>> 16;
    int mask = keys.length - 1;
    int i = h & mask;
    while (keys[i] != null) {
      if (hashes[i] == h && Arrays.equals(keys[i], 0, keys[i].length, buf, s, e)) {
        return values[i];
      }
      i = (i + 1) & mask;
    }
    String v = new String(buf, s, e - s, StandardCharsets.UTF_8);
    keys[i] = Arrays.copyOfRange(buf, s, e);
    values[i] = v;
    hashes[i] = h;
    if (++size * 2 > keys.length) {
      grow();
    }
    return v;
  }

  private void grow() {
    byte[][] ok = keys;
    String[] ov = values;
    int[] oh = hashes;
    keys = new byte[ok.length * 2][];
    values = new String[ok.length * 2];
    hashes = new int[ok.length * 2];
    int mask = keys.length - 1;
    for (int j = 0; j < ok.length; j++) {
      if (ok[j] != null) {
        int i = oh[j] & mask;
        while (keys[i] != null) {
          i = (i + 1) & mask;
        }
        keys[i] = ok[j];
        values[i] = ov[j];
        hashes[i] = oh[j];
      }
    }
  }
}
