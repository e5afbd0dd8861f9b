package io.symbolicate.symbols.jvm;

/**
 * One class of a decoded page: its names and its methods, sorted by (hashCode, name) of the
 * obfuscated method name so a lookup is a binary search over one int array.
 */
public record JvmClass(
    String obfuscatedName,
    String originalName,
    String sourceFile,
    boolean synthesized,
    int[] methodHashes,
    MethodMapping[] methods) {

  static JvmClass of(
      String obf, String orig, String sourceFile, boolean synthesized, MethodMapping[] methods) {
    int[] hashes = new int[methods.length];
    for (int i = 0; i < methods.length; i++) {
      hashes[i] = methods[i].obfuscatedName().hashCode();
    }
    return new JvmClass(obf, orig, sourceFile, synthesized, hashes, methods);
  }

  /** Orders methods as {@link #method} expects. */
  static int compare(String a, String b) {
    int c = Integer.compare(a.hashCode(), b.hashCode());
    return c != 0 ? c : a.compareTo(b);
  }

  /** The method mapping for an obfuscated method name, or null. */
  public MethodMapping method(String obfName) {
    return method(obfName, obfName.hashCode());
  }

  /** {@link #method(String)} when the caller already has {@code obfName.hashCode()}. */
  MethodMapping method(String obfName, int h) {
    int lo = 0;
    int hi = methodHashes.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int v = methodHashes[mid];
      if (v < h) {
        lo = mid + 1;
      } else if (v > h) {
        hi = mid - 1;
      } else {
        for (int i = mid; i >= 0 && methodHashes[i] == h; i--) {
          if (methods[i].obfuscatedName().equals(obfName)) {
            return methods[i];
          }
        }
        for (int i = mid + 1; i < methodHashes.length && methodHashes[i] == h; i++) {
          if (methods[i].obfuscatedName().equals(obfName)) {
            return methods[i];
          }
        }
        return null;
      }
    }
    return null;
  }

  /** {@link #method(String, int)} for the name text[start, end), without cutting it out. */
  MethodMapping method(String text, int start, int end, int h) {
    int lo = 0;
    int hi = methodHashes.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int v = methodHashes[mid];
      if (v < h) {
        lo = mid + 1;
      } else if (v > h) {
        hi = mid - 1;
      } else {
        for (int i = mid; i >= 0 && methodHashes[i] == h; i--) {
          if (sameName(methods[i].obfuscatedName(), text, start, end)) {
            return methods[i];
          }
        }
        for (int i = mid + 1; i < methodHashes.length && methodHashes[i] == h; i++) {
          if (sameName(methods[i].obfuscatedName(), text, start, end)) {
            return methods[i];
          }
        }
        return null;
      }
    }
    return null;
  }

  static boolean sameName(String name, String text, int start, int end) {
    return name.length() == end - start && text.startsWith(name, start);
  }
}
