package io.symbolicate.symbols.nativecode;

import java.util.Arrays;

/** Open-addressing set of non-negative ints that remembers insertion order and clears cheaply. */
final class IntSet {
  private int[] table = new int[64]; // stores key + 1, 0 = empty
  private int[] keys = new int[16];
  private int size;

  int size() {
    return size;
  }

  int get(int i) {
    return keys[i];
  }

  /** Returns true when the key was not present. */
  boolean add(int key) {
    if ((size + 1) * 2 > table.length) {
      rehash(table.length * 2);
    }
    int mask = table.length - 1;
    int i = mix(key) & mask;
    while (true) {
      int t = table[i];
      if (t == 0) {
        table[i] = key + 1;
        if (size == keys.length) {
          keys = Arrays.copyOf(keys, size * 2);
        }
        keys[size++] = key;
        return true;
      }
      if (t == key + 1) {
        return false;
      }
      i = (i + 1) & mask;
    }
  }

  void clear() {
    if (size * 8 < table.length) {
      int mask = table.length - 1;
      for (int k = 0; k < size; k++) {
        int i = mix(keys[k]) & mask;
        while (table[i] != 0) {
          table[i] = 0;
          i = (i + 1) & mask;
        }
      }
    } else {
      Arrays.fill(table, 0);
    }
    size = 0;
  }

  int[] sortedKeys() {
    int[] out = Arrays.copyOf(keys, size);
    Arrays.sort(out);
    return out;
  }

  private void rehash(int capacity) {
    table = new int[capacity];
    int mask = capacity - 1;
    for (int k = 0; k < size; k++) {
      int i = mix(keys[k]) & mask;
      while (table[i] != 0) {
        i = (i + 1) & mask;
      }
      table[i] = keys[k] + 1;
    }
  }

  private static int mix(int k) {
    int h = k * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
