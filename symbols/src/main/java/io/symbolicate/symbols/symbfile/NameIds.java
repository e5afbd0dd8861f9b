package io.symbolicate.symbols.symbfile;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Dense ids for byte strings (file and inline-origin names), in order of first sight, without
 * making Strings: an open-addressing hash table over the names' bytes, kept in one array.
 */
final class NameIds {
  /** Bytes of distinct names at most (far past any real executable's). */
  static final int MAX_NAME_BYTES = 1 << 30;

  private byte[] data = new byte[1 << 12];
  private int dataSize;
  private int[] slots = new int[1 << 10]; // id + 1; 0: empty
  private int[] offs = new int[256];
  private int[] lens = new int[256];
  private int[] hashes = new int[256];
  private int count;

  /** The id of these bytes; {@link #wasNew} says whether this call gave it. */
  int id(byte[] b, int off, int len) throws SymbfileException {
    int h = hash(b, off, len);
    int mask = slots.length - 1;
    int i = h & mask;
    while (true) {
      int t = slots[i];
      if (t == 0) {
        break;
      }
      int k = t - 1;
      if (hashes[k] == h
          && lens[k] == len
          && Arrays.equals(data, offs[k], offs[k] + len, b, off, off + len)) {
        wasNew = false;
        return k;
      }
      i = (i + 1) & mask;
    }
    if (count == offs.length) {
      offs = Arrays.copyOf(offs, count * 2);
      lens = Arrays.copyOf(lens, count * 2);
      hashes = Arrays.copyOf(hashes, count * 2);
    }
    if (data.length - dataSize < len) {
      if (dataSize + (long) len > MAX_NAME_BYTES) {
        throw new SymbfileException(
            "the symbfile's distinct file and function names take more than "
                + MAX_NAME_BYTES
                + " bytes");
      }
      data =
          Arrays.copyOf(
              data,
              (int) Math.min(MAX_NAME_BYTES, Math.max(dataSize + (long) len, 2L * data.length)));
    }
    System.arraycopy(b, off, data, dataSize, len);
    offs[count] = dataSize;
    lens[count] = len;
    hashes[count] = h;
    dataSize += len;
    slots[i] = ++count;
    if (count * 2 > slots.length) {
      rehash();
    }
    wasNew = true;
    return count - 1;
  }

  private boolean wasNew;

  /** Eight bytes a step (names are long: C++ signatures), mixed by multiplication. */
  private static int hash(byte[] b, int off, int len) {
    long h = len;
    int i = off;
    int e = off + len;
    for (; e - i >= 8; i += 8) {
      h = Long.rotateLeft((h ^ (long) LONGS.get(b, i)) * MIX, 31);
    }
    for (; i < e; i++) {
      h = (h ^ b[i]) * MIX;
    }
    h *= MIX;
    return (int) (h ^ (h >>> 32));
  }

  private static final long MIX = 0x9E3779B97F4A7C15L;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  boolean wasNew() {
    return wasNew;
  }

  /** The bytes of every name; {@link #offset} and {@link #length} place one. */
  byte[] bytes() {
    return data;
  }

  int offset(int id) {
    return offs[id];
  }

  int length(int id) {
    return lens[id];
  }

  int size() {
    return count;
  }

  private void rehash() {
    int[] s = new int[slots.length * 2];
    int mask = s.length - 1;
    for (int k = 0; k < count; k++) {
      int i = hashes[k] & mask;
      while (s[i] != 0) {
        i = (i + 1) & mask;
      }
      s[i] = k + 1;
    }
    slots = s;
  }
}
