package io.symbolicate.symbols.minidump.walk;

import java.util.HashMap;
import java.util.Map;

/** A table of numeric codes (exception codes, signal codes, flavours) to Breakpad's names. */
final class CodeNames {
  static final CodeNames NONE = new CodeNames(Map.of());

  private final Map<Long, String> names;

  private CodeNames(Map<Long, String> names) {
    this.names = names;
  }

  /**
   * A table written as {@code "1 NAME, 0x2 OTHER NAME"}: entries separated by commas or line
   * ends, each a code ({@link Long#decode}) and the name after the first space.
   */
  static CodeNames parse(String table) {
    Map<Long, String> m = new HashMap<>();
    for (String entry : table.split("[,\\n]")) {
      String e = entry.strip();
      if (e.isEmpty()) {
        continue;
      }
      int space = e.indexOf(' ');
      long code = Long.decode(e.substring(0, space)) & 0xFFFFFFFFL;
      if (m.put(code, e.substring(space + 1).strip()) != null) {
        throw new IllegalArgumentException("code listed twice: " + e);
      }
    }
    return new CodeNames(Map.copyOf(m));
  }

  /** Names numbered consecutively from {@code first}, as si_code values are. */
  static CodeNames numbered(int first, String... names) {
    Map<Long, String> m = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      m.put((long) first + i, names[i]);
    }
    return new CodeNames(Map.copyOf(m));
  }

  /** The name of a 32-bit code, or null. */
  String get(long code) {
    return names.get(code & 0xFFFFFFFFL);
  }

  /** The name, or {@code fallback} for a code the table does not have. */
  String get(long code, String fallback) {
    String n = get(code);
    return n == null ? fallback : n;
  }

  int size() {
    return names.size();
  }
}
