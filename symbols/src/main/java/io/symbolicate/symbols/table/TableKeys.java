package io.symbolicate.symbols.table;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Binary keys of {@code symbols.tables} and of the store materialised from it. Ordered so that
 * all records of a module are adjacent and a reverse range scan finds the page for any key:
 *
 * <pre>
 * state: module-ref ‖ 00 ‖ 01
 * page:  module-ref ‖ 00 ‖ 02 ‖ generation (8, big-endian) ‖ first key (8, big-endian)
 * </pre>
 */
public final class TableKeys {
  static final byte STATE = 1;
  static final byte PAGE = 2;

  private TableKeys() {}

  public static byte[] state(ModuleRef ref) {
    byte[] m = ref.bytes();
    byte[] k = Arrays.copyOf(m, m.length + 2);
    k[m.length] = 0;
    k[m.length + 1] = STATE;
    return k;
  }

  public static byte[] page(ModuleRef ref, long generation, long firstKey) {
    byte[] m = ref.bytes();
    return ByteBuffer.allocate(m.length + 18)
        .put(m)
        .put((byte) 0)
        .put(PAGE)
        .putLong(generation)
        .putLong(firstKey)
        .array();
  }

  /** The first key after every record of the module (its state and all its pages). */
  public static byte[] afterModule(ModuleRef ref) {
    byte[] m = ref.bytes();
    byte[] k = Arrays.copyOf(m, m.length + 2);
    k[m.length] = 0;
    k[m.length + 1] = PAGE + 1;
    return k;
  }

  /** The module part of any table key. */
  public static ModuleRef moduleOf(byte[] key) {
    int sep = indexOfNul(key);
    if (sep < 0) {
      throw new IllegalArgumentException("not a table key");
    }
    return ModuleRef.parse(new String(key, 0, sep, StandardCharsets.UTF_8));
  }

  public static boolean isState(byte[] key) {
    int sep = indexOfNul(key);
    return sep >= 0 && sep + 2 == key.length && key[sep + 1] == STATE;
  }

  /** Generation of a page key. */
  public static long generationOf(byte[] pageKey) {
    return ByteBuffer.wrap(pageKey, pageKey.length - 16, 8).getLong();
  }

  /** First key of a page key. */
  public static long firstKeyOf(byte[] pageKey) {
    return ByteBuffer.wrap(pageKey, pageKey.length - 8, 8).getLong();
  }

  private static int indexOfNul(byte[] key) {
    for (int i = 0; i < key.length; i++) {
      if (key[i] == 0) {
        return i;
      }
    }
    return -1;
  }
}
