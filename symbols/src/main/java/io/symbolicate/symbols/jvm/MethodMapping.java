package io.symbolicate.symbols.jvm;

/**
 * Every mapping line of one obfuscated method name in one class, in file order. The obfuscated
 * ranges are also kept in two int arrays so that finding the lines that cover a frame's line scans
 * contiguous memory instead of touching every entry object.
 */
public record MethodMapping(
    String obfuscatedName,
    MemberEntry[] entries,
    boolean hasLineInfo,
    boolean outline,
    int[] starts,
    int[] ends) {

  static MethodMapping of(String obfName, MemberEntry[] entries, boolean outline) {
    boolean lines = false;
    int[] s = new int[entries.length];
    int[] e = new int[entries.length];
    for (int i = 0; i < entries.length; i++) {
      lines |= entries[i].hasLineRange();
      s[i] = entries[i].obfStart();
      e[i] = entries[i].obfEnd();
    }
    return new MethodMapping(obfName, entries, lines, outline, s, e);
  }
}
