package io.symbolicate.symbols.apple;

import io.symbolicate.symbols.id.DebugIdentifiers;

/**
 * UUIDs as the reports write them: plain 32 hex digits (text images), hyphenated (incident
 * identifiers, .ips), braced or {@code urn:uuid:} (the forms Rust's uuid crate also reads).
 */
final class Uuids {
  static final String NIL = "00000000-0000-0000-0000-000000000000";

  private Uuids() {}

  /** Lower-case hyphenated form, or null when {@code s} is no UUID. */
  static String canonical(String s) {
    String t = s;
    if (t.length() == 38 && t.charAt(0) == '{' && t.charAt(37) == '}') {
      t = t.substring(1, 37);
    } else if (t.length() == 45 && t.regionMatches(true, 0, "urn:uuid:", 0, 9)) {
      t = t.substring(9);
    }
    String hex;
    if (t.length() == 32) {
      hex = t;
    } else if (t.length() == 36) {
      for (int dash : new int[] {8, 13, 18, 23}) {
        if (t.charAt(dash) != '-') {
          return null;
        }
      }
      hex =
          t.substring(0, 8)
              + t.substring(9, 13)
              + t.substring(14, 18)
              + t.substring(19, 23)
              + t.substring(24);
    } else {
      return null;
    }
    for (int i = 0; i < 32; i++) {
      if (!Chars.isHex(hex.charAt(i))) {
        return null;
      }
    }
    return DebugIdentifiers.dashedGuid(hex);
  }

  /** 32 lower-case hex digits of a canonical UUID. */
  static String hex(String canonical) {
    return canonical.replace("-", "");
  }
}
