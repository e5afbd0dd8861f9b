package io.symbolicate.symbols.id;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Validation of identifiers that become storage keys or URLs. Crash reports are untrusted input:
 * a debug file name like {@code ../../etc/passwd} or an id with a slash must never reach S3, the
 * filesystem or an HTTP server. A bad identifier is a per-module {@code malformed_request}.
 */
public final class DebugIdentifiers {
  public static final String GLOBAL_SCOPE = "global";

  /** What a debug id must match (without dashes); checked by {@link #isHex}. */
  static final Pattern HEX_ID = Pattern.compile("[0-9A-Fa-f]{1,80}");

  /** What a scope must match; checked by {@link #isScope}, quoted in messages. */
  static final Pattern SCOPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  private static final int MAX_FILE_NAME = 255;

  private DebugIdentifiers() {}

  /** A validated native module identity; the debug id is upper-case hex without dashes. */
  public record Native(String debugFile, String debugId) {
    public String key() {
      return debugFile + "/" + debugId;
    }
  }

  /** Thrown for identifiers that must not become keys. */
  public static final class InvalidIdentifierException extends IllegalArgumentException {
    public InvalidIdentifierException(String message) {
      super(message);
    }
  }

  public static Native nativeModule(String debugFile, String debugId) {
    return new Native(requireFileName(debugFile), normalizeDebugId(debugId));
  }

  /** Accepts the breakpad form (hex) and the GUID form with dashes; returns upper-case hex. */
  public static String normalizeDebugId(String id) {
    if (id == null || id.isEmpty()) {
      throw new InvalidIdentifierException("debug id is empty");
    }
    String hex = id.indexOf('-') < 0 ? id : id.replace("-", "");
    if (!isHex(hex)) {
      throw new InvalidIdentifierException("debug id must be hexadecimal: " + printable(id));
    }
    return hex.toUpperCase(Locale.ROOT);
  }

  /**
   * The GUID form of 32 hex digits, {@code xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}, lower case (UUIDs
   * of Mach-O files and Apple reports, PDB and Portable PDB GUIDs).
   */
  public static String dashedGuid(String hex32) {
    String h = hex32.toLowerCase(Locale.ROOT);
    return h.substring(0, 8)
        + "-"
        + h.substring(8, 12)
        + "-"
        + h.substring(12, 16)
        + "-"
        + h.substring(16, 20)
        + "-"
        + h.substring(20, 32);
  }

  /** A single path segment: no separators, no dot segments, no control characters. */
  public static String requireFileName(String name) {
    if (name == null || name.isEmpty()) {
      throw new InvalidIdentifierException("debug file name is empty");
    }
    if (name.length() > MAX_FILE_NAME) {
      throw new InvalidIdentifierException(
          "debug file name longer than " + MAX_FILE_NAME + " characters");
    }
    if (name.equals(".") || name.equals("..")) {
      throw new InvalidIdentifierException("debug file name is a dot segment: " + name);
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '/' || c == '\\') {
        throw new InvalidIdentifierException(
            "debug file name contains a path separator: " + printable(name));
      }
      if (c < 0x20 || c == 0x7f || Character.isISOControl(c)) {
        throw new InvalidIdentifierException(
            "debug file name contains a control character: " + printable(name));
      }
      if (c == '%' || c == '?' || c == '#') {
        throw new InvalidIdentifierException(
            "debug file name contains a URL metacharacter: " + printable(name));
      }
      if (c == '|') {
        // separates the parts of a module's name (scope|kind|key) in the store and on the topics
        throw new InvalidIdentifierException("debug file name contains '|': " + printable(name));
      }
    }
    return name;
  }

  public static String requireScope(String scope) {
    if (scope == null || !isScope(scope)) {
      throw new InvalidIdentifierException(
          "scope must match " + SCOPE.pattern() + ": " + printable(String.valueOf(scope)));
    }
    return scope;
  }

  // hand-written matchers for HEX_ID and SCOPE: they run for every module of every event

  static boolean isHex(String s) {
    int n = s.length();
    if (n < 1 || n > 80) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  static boolean isScope(String s) {
    int n = s.length();
    if (n < 1 || n > 128) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      boolean alnum = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
      if (!alnum && (i == 0 || c != '.' && c != '_' && c != '-')) {
        return false;
      }
    }
    return true;
  }

  static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length() && i < 80; i++) {
      char c = s.charAt(i);
      b.append(c < 0x20 || c == 0x7f ? String.format("\\x%02x", (int) c) : String.valueOf(c));
    }
    return "\"" + b + (s.length() > 80 ? "..." : "") + "\"";
  }
}
