package io.symbolicate.symbols.jvm;

/** Every mapping line of one obfuscated method name in one class, in file order. */
public record MethodMapping(String obfuscatedName, MemberEntry[] entries, boolean hasLineInfo, boolean outline) {

  static MethodMapping of(String obfName, MemberEntry[] entries, boolean outline) {
    boolean lines = false;
    for (MemberEntry e : entries) {
      lines |= e.hasLineRange();
    }
    return new MethodMapping(obfName, entries, lines, outline);
  }
}
