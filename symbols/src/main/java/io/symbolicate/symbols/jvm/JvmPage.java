package io.symbolicate.symbols.jvm;

/** A decoded page: classes sorted by (unsigned class key, obfuscated name). */
public final class JvmPage {
  private final long[] keys;
  private final JvmClass[] classes;

  JvmPage(long[] keys, JvmClass[] classes) {
    this.keys = keys;
    this.classes = classes;
  }

  /** The class with this obfuscated name, or null. */
  public JvmClass find(long key, String obfName) {
    int lo = 0;
    int hi = keys.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compareUnsigned(keys[mid], key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        // Equal keys are adjacent: scan both ways.
        for (int i = mid; i >= 0 && keys[i] == key; i--) {
          if (classes[i].obfuscatedName().equals(obfName)) {
            return classes[i];
          }
        }
        for (int i = mid + 1; i < keys.length && keys[i] == key; i++) {
          if (classes[i].obfuscatedName().equals(obfName)) {
            return classes[i];
          }
        }
        return null;
      }
    }
    return null;
  }

  /** {@link #find(long, String)} for the name text[start, end), without cutting it out. */
  JvmClass find(long key, String text, int start, int end) {
    int lo = 0;
    int hi = keys.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compareUnsigned(keys[mid], key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        for (int i = mid; i >= 0 && keys[i] == key; i--) {
          if (JvmClass.sameName(classes[i].obfuscatedName(), text, start, end)) {
            return classes[i];
          }
        }
        for (int i = mid + 1; i < keys.length && keys[i] == key; i++) {
          if (JvmClass.sameName(classes[i].obfuscatedName(), text, start, end)) {
            return classes[i];
          }
        }
        return null;
      }
    }
    return null;
  }

  public int classCount() {
    return classes.length;
  }

  public JvmClass classAt(int i) {
    return classes[i];
  }
}
