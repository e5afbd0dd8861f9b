package io.symbolicate.symbols.jvm;

import java.util.Arrays;

/** One class of a decoded page: its names and its methods sorted by obfuscated name. */
public record JvmClass(
    String obfuscatedName,
    String originalName,
    String sourceFile,
    boolean synthesized,
    String[] methodNames,
    MethodMapping[] methods) {

  /** The method mapping for an obfuscated method name, or null. */
  public MethodMapping method(String obfName) {
    int i = Arrays.binarySearch(methodNames, obfName);
    return i < 0 ? null : methods[i];
  }
}
